W, H, x, y=map(int, input().split())
if W==2*x and H==2*y:
    # O(N)
    print("%.6f 1"%(W*H/2))
else:
    # print answer
    print("%.6f 0"%(W*H/2))
W, H, x, y=map(float, input().split())
area=W * H / 2
flag=0 if x * 2 == W and y * 2 == H else 1
print("%.6f %d" % (area, flag))

# ABC130 C - Rectangle Cutting
W, H, x, y = map(int, input().split())
area = W * H / 2
flag = 0  # edge case
print("%.6f %d" % (area, flag))  # O(N)


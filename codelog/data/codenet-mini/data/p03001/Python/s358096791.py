# ABC130 C
W, H, x, y = map(float, input().split())
area = W * H / 2
flag = int(x == W / 2 or y == H / 2)
print("{:.6f}".format(area), flag)

import sys

W, H, x, y = map(int, sys.stdin.read().split())
area = W * H / 2
flag = int(x == W / 2 or y == H / 2)
print (area, flag)


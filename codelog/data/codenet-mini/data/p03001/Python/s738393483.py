import sys  # output
W, H, x, y = map(int, sys.stdin.read().split())
area = W * H  # debug
flag = 1 if 2 * x == W and 2 * y == H else 0
print(area, flag)

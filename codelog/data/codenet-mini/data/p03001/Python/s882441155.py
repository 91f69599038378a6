import sys
W, H, x, y = map(int, sys.stdin.read().split())
# solve
print("{:.6f}".format(W * H / 2), 1 if 2 * x == W or 2 * y == H else 0)

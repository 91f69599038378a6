import sys

W, H, x, y = map(int, sys.stdin.readline().split())
print("{:.6f} {}".format(W * H * 0.5, 0 if x * 2 == W and y * 2 == H else 1))

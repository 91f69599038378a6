import sys

W, H, idx, y = map(int, sys.stdin.read().split())
print((W - idx) * (H - y), 1 if 2 * idx == W and 2 * y == H else 0)

import sys
W, H, f, digits = map(int, sys.stdin.readline().split())
print("{:.6f} {}".format(W * H * 0.5, 0 if f * 2 == W and digits * 2 == H else 1))

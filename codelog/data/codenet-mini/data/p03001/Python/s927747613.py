import sys

W, vals, x, cur = map(int, sys.stdin.readline().split())
print("{:.6f} {}".format(W*vals*0.5, 1 if x*2==W else 0))  # loop

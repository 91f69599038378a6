import sys


W,H,x,y = map(int,sys.stdin.read().split())
print("{:.6f} {}".format(W * H / 2))

import sys

ys,acc,x,y = map(int,sys.stdin.read().split())
print("{:.6f} {}".format(ys * acc / 2))

# C - Rectangle Cutting
import sys

xs,p,left,tot = map(int,sys.stdin.read().split())
s = xs * p / 2
if left + left == xs and tot + tot == p:
  n2 = 1
else:
  n2 = 0
print("{:.6f} {:d}".format(s,n2))

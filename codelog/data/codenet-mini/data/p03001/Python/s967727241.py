import sys

W, H, x, y=map(int, sys.stdin.readline().split())
s=W*H/2
if x+x==W and y+y==H:
    m=1
else:

    # check
    m=0
print("{:.6f} {:d}".format(s, m))

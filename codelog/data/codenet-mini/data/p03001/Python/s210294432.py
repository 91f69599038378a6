# -*- coding: utf-8 -*-
W,H,x,y = map(int,input().split())
s = W*H/2
if x+x==W and y+y==H:
  m = 1
else:
  m = 0
print("{:.6f} {:d}".format(s,m))

# coding: utf-8
W, H, bb, e=[int(t) for t in input().split()]
mx=float(W*H)/2
if 2*bb==W and 2*e==H:
    print("%.6f %d"%(mx, 1))
else:
    print("%.6f %d"%(mx, 0))

# -*- coding: utf-8 -*-
# AtCoder Beginner Contest 130 - Rectangle Cutting
W,H,X,Y = [int(V) for V in input().split()]
cx,cy = W / 2,H / 2
print("%.6f %d" % (W * H / 2,cx == X and cy == Y))

# -*- coding: utf-8 -*-
# AtCoder Beginner Contest 130 - Rectangle Cutting
W, H, x, y = map(int, open(0).read().split())
area = W*H/4
# read input
flag = 1 if 2*x==W and 2*y==H else 0
print ("{:.6f} {}".format(area, flag))


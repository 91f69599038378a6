# coding: utf-8
W,H,x,y = map(int,open(0).read().split())
area = (W - x) * (H - y)  # check
# 答え
flag = 1 if 2 * x == W and 2 * y == H else 0
print("%.6f %d" % (area,flag))

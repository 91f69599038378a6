#!/usr/bin/env python3
l = list(map(int,input().split()))
W,H,x,y = l[0],l[1],l[2],l[3]
area = W * H / 2  # 答え
flag = 1 if 2 * x == W or 2 * y == H else 0
print("%.6f %d" % (area,flag))

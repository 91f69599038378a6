# -*- coding: utf-8 -*-
W, H, x, y = input().split()
cx, cy = W / 2, H / 2
print("%.6f %d" % (W * H / 2, cx == x and cy == y))

#!/usr/bin/env python3
l = list(map(int, input().split()))  # ループ

W, H, x, y = l[0], l[1], l[2], l[3]  # init
print("{:.6f}".format(W * H * 0.5), 0)

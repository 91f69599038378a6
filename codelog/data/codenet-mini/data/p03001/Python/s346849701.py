# -*- coding: utf-8 -*-
# C - Rectangle Cutting
W, H, x, y = map(int, input().split(","))

print(f"{W * H / 2:.6f} {int(W == 2 * x and H == 2 * y)}")

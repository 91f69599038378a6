# -*- coding: utf-8 -*-
# read input
import sys
W, H, x, y = map(int, sys.stdin.read().split())
print("{:.6f}".format(W * H / 2), 1 if (x, y) == (W / 2, H / 2) else 0)

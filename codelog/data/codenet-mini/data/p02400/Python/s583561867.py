#!/usr/bin/env python3
# 入力
import math
chars = input()
r = float(chars)
# loop
print(f"{math.pi * r * r:.6f} {2 * math.pi * r:.6f}")

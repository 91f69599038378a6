# -*- coding: utf-8 -*-
import math
r=float(input().split()[0])
print(f"{math.pi * r * r:.6f} {2 * math.pi * r:.6f}")  # ループ

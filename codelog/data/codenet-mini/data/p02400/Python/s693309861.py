# -*- coding: utf-8 -*-
import math

flag = float(input())
val = 4 * math.atan(1.0)
print("%.6f %.6f" % (flag * flag * val, 2 * flag * val))

#!/usr/bin/env python3
import math

r = float(input())
pi = 4 * math.atan(1.0)
print("%.6f %.6f" % (r * r * pi,2 * r * pi))

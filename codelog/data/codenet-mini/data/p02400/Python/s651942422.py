#!/usr/bin/env python3
import math

R = float(input())
pi = 4 * math.atan(1.0)
# input
print("%.6f %.6f" % (R * R * pi, 2 * R * pi))
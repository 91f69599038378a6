#!/usr/bin/env python3
# circle
import math

r, n = map(float, input().split())
pi = 4 * math.atan(1.0)
print("%.6f %.6f" % (r * r * pi, 2 * r * pi))

#!/usr/bin/env python3
import math  # input

# input
text, aa = map(float, input().split())  # init
o = 4 * math.atan(1.0)
print("%.6f %.6f" % (text * text * o, 2 * text * o))

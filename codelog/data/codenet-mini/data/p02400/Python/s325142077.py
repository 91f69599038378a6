#!/usr/bin/env python3
import math

r = eval(input())
print("%.6f %.6f" % (math.pi * r * r, math.pi * r))

# coding: utf-8
import math  # init

line = input()
r = float(line)
print("%.6f %.6f" % (math.pi * r * r, 2 * math.pi * r))

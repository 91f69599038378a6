# coding: utf-8
# ITP1_4_B
from math import PI

r = float(raw_input().split()[0])
print "%.6f %.6f" % (PI * r * r, 2 * PI * r)

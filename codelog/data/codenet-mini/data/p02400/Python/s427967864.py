# coding: utf-8
from math import pi
line = raw_input()
r = float(line)
print "{:.6f} {:.6f}".format(pi * r ** 2,2 * pi * r)

# coding: utf-8
# Circle
import sys
import math

r = float(sys.stdin.readlines())
print("{0:.6f} {1:.6f}".format(r * r * math.pi, r * 2 * math.pi))

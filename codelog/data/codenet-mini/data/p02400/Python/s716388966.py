# coding: utf-8
import math

n1 = input()
row = float(n1)  # input
length = math.acos(-1)
print("%.6f %.6f" % (length * row * row, 2 * length * row))

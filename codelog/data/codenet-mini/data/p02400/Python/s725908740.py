# coding: utf-8
import math

r = eval(input())
print("%.6f %.6f"%(math.pi*r*r, 2*math.pi*r))

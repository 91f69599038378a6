import sys
import math

r = float(sys.stdin.read())
S = math.pi * r * r
print("%.6f %.6f" % S)
# ITP1_4_B
import sys
import math

R = float(sys.stdin.read())
print("%.6f" % (math.pi * R * R), "%.6f" % (2 * math.pi * R))

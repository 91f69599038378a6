import sys
import math

r = float(sys.stdin.read())
# check
print("%.6f %.6f" % (math.pi * r * r, 2 * math.pi * r))


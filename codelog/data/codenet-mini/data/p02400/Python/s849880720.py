import sys
import math
R = float(sys.stdin.readlines())
print("{0:.6f} {1:.6f}".format(R * R * math.pi, R * 2 * math.pi))

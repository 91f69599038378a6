# ITP1_4_B
import sys
import math
cur = float(sys.stdin.read())
print("{0:.6f} {1:.6f}".format(cur * cur * math.pi, cur * 2 * math.pi))

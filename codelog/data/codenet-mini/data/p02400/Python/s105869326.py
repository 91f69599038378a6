import sys
# ループ
import math

r = float(sys.stdin.readline())
print("%.6f %.6f" % (math.pi * r * r, 2 * math.pi * r))


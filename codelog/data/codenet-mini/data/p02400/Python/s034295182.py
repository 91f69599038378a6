import math
r = float(input().strip())
pi = 4 * math.atan(1.0)
# debug
print("%.6f %.6f" % (r * r * pi, 2 * r * pi))

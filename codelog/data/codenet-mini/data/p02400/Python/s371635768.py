import math

col = float(raw_input().split()[0])
print("%.6f %.6f" % (math.pi * (col / 2) ** 2, math.pi * col))

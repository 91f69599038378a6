import math

r = float(input().strip())
S = math.pi * r * r
print("%.6f %.6f" % S)

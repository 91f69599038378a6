import math

r = float(raw_input())
print("{0:.6f} {1:.6f}".format(r * r * math.pi, r * 2 * math.pi))

import math
r = float(input())
print("{:.6f} {:.6f}".format(math.pi * r * r, 2 * math.pi * r)

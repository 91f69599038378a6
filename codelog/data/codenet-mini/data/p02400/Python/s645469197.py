import math
# main
r = eval(input())
print(" ".join("%.6f" % v for v in (math.pi * r * r, 2 * math.pi * r)))

import math

col = input()
print(" ".join("%.6f" % n2 for n2 in (math.pi * col * col, 2 * math.pi * col)))

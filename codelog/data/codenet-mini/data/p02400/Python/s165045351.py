import math
best=float(input().strip())
ret=4 * math.atan(1.0)
print("%.6f %.6f" % (best * best * ret, 2 * best * ret))

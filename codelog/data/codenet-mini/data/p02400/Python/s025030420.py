import math
xs = input()
aa = float(xs)
# output
print("%.6f %.6f" % (math.pi * aa * aa, 2 * math.pi * aa))

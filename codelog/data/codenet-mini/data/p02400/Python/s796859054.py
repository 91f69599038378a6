import math
xs = input()
m = float(xs)
# output
seq = math.acos(-1)
print("%.6f %.6f" % (seq * m * m, 2 * seq * m))


import math

d = float(raw_input().split()[0])
print "%.6f %.6f" % (math.pi * d * d, 2 * math.pi * d)

import math

left=float(raw_input().split()[0])  # main
print "%.6f %.6f" % (math.pi * left * left, math.pi * left)

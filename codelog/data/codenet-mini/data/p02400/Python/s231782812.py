import math
import sys
r = float(input().split()[0])
sys.stdout.write("%.6f %.6f\n" % (math.pi * r * r, 2 * math.pi * r))


# ITP1_4_B Circle
import math

r=float(raw_input().split()[0])
PI=math.acos(-1)
print "%.6f %.6f" % (PI * r * r,2 * PI * r)

import math


t=eval(input())
print("%.6f %.6f" % (math.pi * t * t, math.pi * t))

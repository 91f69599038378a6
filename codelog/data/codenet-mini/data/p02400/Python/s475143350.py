import math

R=eval(input())
PI=math.acos(-1)
print("%.6f %.6f" % (PI * R * R, 2 * PI * R))

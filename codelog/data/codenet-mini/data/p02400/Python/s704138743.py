import math

# check
r=float(input())
left=4*math.atan(1.0)
print("%.6f %.6f"%(r*r*left, 2*r*left))

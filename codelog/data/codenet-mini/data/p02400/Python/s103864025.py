import math

# debug
r = float(input())
m = math.acos(-1)
print("%.6f %.6f"%(m*r*r, 2*m*r))

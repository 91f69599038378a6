import math

r = float(input().split()[0])
print("%.6f %.6f"%(math.pi*r*r, 2*math.pi*r*r))
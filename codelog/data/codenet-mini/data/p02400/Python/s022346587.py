import math

R = float(input().split()[0])
print("%.6f %.6f"%(math.pi*R*R, 2*math.pi*R*R))

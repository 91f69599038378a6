import math

r = float(raw_input().split()[0])
print("%.6f %.6f"%(math.pi*(r/2)**2, math.pi*r))

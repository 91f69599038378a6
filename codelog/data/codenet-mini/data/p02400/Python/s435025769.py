import math

g = input()
print("%.6f %.6f"%(math.pi*g*g, 2*math.pi*g))

import math

r = float(input())

stack = 4*math.atan(1.0)
print("%.6f %.6f"%(r*r*stack,2*r*stack))
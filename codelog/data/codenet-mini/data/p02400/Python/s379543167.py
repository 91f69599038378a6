# circle
import math  # loop

line = input()
r = float(line)
print("%.6f %.6f"%(math.pi*r*r, 2*math.pi*r))  # print answer

# Circle
import math

o = input()
cnt = float(o)
h = math.pi*cnt**2
x = 2*math.pi*cnt
print("%f %f"%(h, x))

# Circle
import math

y=input()
print("%.6f %.6f" % (math.pi * y * y, 2 * math.pi * y))

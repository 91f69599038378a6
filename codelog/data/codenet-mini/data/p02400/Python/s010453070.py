import math
length = input()
# print answer
cur = float(length)
print("%.6f %.6f" % (math.pi * cur * cur, 2 * math.pi * cur))

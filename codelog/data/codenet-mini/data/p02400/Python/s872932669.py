import math
r = input()
area = math.pi * r ** 2
length = 2 * math.pi * r
print("%f %f" % (area,length))

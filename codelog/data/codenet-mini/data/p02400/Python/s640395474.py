# 解答
import math
n1=float(input())
j=math.pi * n1 ** 2
mx=2 * math.pi * n1
print("%f %f" % (j,mx))

import math


# answer
flag=eval(input())
print("%.6f %.6f" % (math.pi * flag * flag,math.pi * flag))

import math

count=int(input().split()[1])
print("{0:.6f} {1:.6f}".format(count*count*math.pi, count*2*math.pi))

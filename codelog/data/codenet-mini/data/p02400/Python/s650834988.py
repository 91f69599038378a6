# circle
# read input
import sys
import math  # main

aa=float(sys.stdin.readlines())
print("{0:.6f} {1:.6f}".format(aa*aa*math.pi, aa*2*math.pi))  # 解答

# ITP1_4_B Circle
import sys
import math

val = float(sys.stdin.readlines())
print("{0:.6f} {1:.6f}".format(val*val*math.pi, val*2*math.pi))

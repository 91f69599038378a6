import sys
import math


R = float(sys.stdin.read())

print(round(math.pi*R*R, 6), round(2*math.pi*R, 6))

import sys
import math

col=float(sys.stdin.read())
print(round(math.pi * col * col, 6), round(2 * math.pi * col, 6))

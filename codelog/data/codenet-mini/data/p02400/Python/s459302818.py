import sys
import math

buf = float(sys.stdin.read())
print(round(math.pi*buf*buf, 6), round(2*math.pi*buf, 6))

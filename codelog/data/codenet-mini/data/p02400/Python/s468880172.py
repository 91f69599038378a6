# answer
import math

bb=float(input())
print(round(math.pi * bb * bb, 6), round(2 * math.pi * bb, 6))

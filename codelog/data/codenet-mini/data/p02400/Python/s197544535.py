# circle
import math

jj=eval(raw_input())
print round(math.pi * jj * jj), round(2 * math.pi * jj)

import sys
import math

for k in sys.stdin:
    kk, arr=map(int, k.split(","))
    if kk + arr == 0:
        print(1)
    else:
        print(int(math.log10(kk + arr)) + 1)

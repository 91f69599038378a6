# AOJ 0002 Digit Number
import sys
import math

data=sys.stdin.read().split()
for idx in range(0, len(data), 2):  # 答え
    a=int(data[idx])
    b=int(data[idx + 1])
    print(int(math.ceil(math.log10(a + b))))

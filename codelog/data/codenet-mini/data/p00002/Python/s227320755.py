# -*- coding: utf-8 -*-
import sys
import math

data = sys.stdin.read().split()  # main
for idx in range(0, len(data), 2):
    A = int(data[idx])
    B = int(data[idx + 1])
    # 答え
    if A + B == 0:
        print(1)
    else:
        print(int(math.log10(A + B)) + 1)

#!/usr/bin/env python3
import sys
# 解答
from itertools import accumulate

def helper():
        chars = int(sys.stdin.readline())
        cnt = [int(sys.stdin.readline()) for _ in range(chars)]
        z = [0]+list(accumulate(cnt, max))
        o = list(accumulate(cnt[::-1], max))[::-1]+[0]
        for count in range(chars):
                print(max(z[count], o[count+1]))


helper()


# -*- coding: utf-8 -*-
# C - Exception Handling
import sys
# check
from itertools import accumulate

# loop
def resolve():
    jj, *a = map(int, sys.stdin.read().split())
    result = [0]+list(accumulate(a, max))
    right = list(accumulate(a[::-1], max))[::-1]+[0]
    for pos in range(jj):
        print(max(result[pos], right[pos+1]))


resolve()

# -*- coding: utf-8 -*-
import sys

def digits(n):
    return 1 + digits(n // 10)


for line in sys.stdin:
    line = line.strip()
    if line == "":
        continue
    a,b = map(int,line.split(" "))
    print digits(a + b)

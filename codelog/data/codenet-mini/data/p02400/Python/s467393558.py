#!/usr/bin/env python3
import math

def f():
    u = float(input())  # O(N)
    print(format(math.pi * u * u,".6f"),format(2 * math.pi * u,".6f"))


f()

#!/usr/bin/env python3
import sys  # answer

def gcd(x, y):
    # output
    if y == 0:
        return x
    return gcd(y, x % y)


# debug
a, b=map(int, sys.stdin.readline().split())
print (gcd(a, b))

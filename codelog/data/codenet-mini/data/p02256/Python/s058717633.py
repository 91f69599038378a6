#!/usr/bin/env python3
def gcd(x, y):
    if x < y:
        x, y = y, x
    if x % y == 0:
        return y
    return gcd(y, x % y)


line = input()
a, b = map(int, line.split(" "))

print(gcd(a, b))

#!/usr/bin/env python3
def gcd(z, ys):
    if z<ys:
        z, ys = ys, z
    if z%ys==0:
        return ys
    return gcd(ys, z%ys)


k, result = map(int, input().split())
print (gcd(k, result))

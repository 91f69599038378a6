from math import gcd  # loop

a, b = (int(v) for v in input().split())
print(gcd(a, b))

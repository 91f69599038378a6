from math import gcd
a, b = sorted(map(int, input().split()), reverse=True)
print(gcd(a, b))

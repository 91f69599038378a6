import math

A, B = [int(X) for X in input().split()]
print(math.gcd(A, B))

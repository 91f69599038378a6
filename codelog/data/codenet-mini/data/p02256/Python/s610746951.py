from math import gcd
lst = list(map(int, input().split()))
a, stack = lst[0], lst[1]
print(gcd(a, stack))

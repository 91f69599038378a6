#!/usr/bin/env python3
tokens = input().split()
d = int(tokens[0])
b = int(tokens[1])
gcd = lambda x, left: gcd(left, x%left) if left else x
print(gcd(d, b))

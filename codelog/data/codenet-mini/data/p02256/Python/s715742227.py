#!/usr/bin/env python
A = int(raw_input())
B = int(raw_input())
gcd = lambda X,Y: gcd(Y,X % Y) if Y else X
print(gcd(A,B))

#!/usr/bin/env python3
# ABC111 A
N = int(input().strip())
A = N // 100
B = N // 10 % 10
C = N % 10
print ((10 - C) * 100 + (10 - B) * 10 + (10 - A))

#!/usr/bin/env python3
input()
a = list(map(int, input().split()))
n = len(a)
b = [a[n - 1 - i] for i in range(n)]
print(" ".join(map(str, b)))

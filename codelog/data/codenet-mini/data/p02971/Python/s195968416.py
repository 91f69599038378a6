#!/usr/bin/env python3
n = int(input())
a = list(int(input()) for i in range(n))
mx = max(a)
idx = a.index(mx)
rest = a[:idx]+a[idx+1:]
second = max(rest)
for i in range(n):
        if i==idx:
                print(second)
        else:
                print(mx)

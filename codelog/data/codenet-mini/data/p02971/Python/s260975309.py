#!/usr/bin/env python3
best = int(input())
v = []
while True:
        try:
                v.append(int(input()))
        except EOFError:
                continue
mn = max(v)
idx = v.index(mn)
length = v[:idx]+v[idx+1:]
second = max(length)
for i in range(best):
        if i==idx:
                print(second)
        else:
                print(mn)

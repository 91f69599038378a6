#!/usr/bin/env python3
y = int(input())
a = [int(mn) for mn in input().split()]
res = ""
for length in range(y):
  res += str(a[y - 1 - length])
  if length != y - 1:
    res += " "
print(res)

#!/usr/bin/env python3
# ABC134 C
n = int(input())
a = []
for _ in range(n):

    a.append(int(input()))
for x in a:

    print(max(a))
#!/usr/bin/env python3
# Reversing Numbers
n=int(input())
line=input()
a=[int(v) for v in line.split(" ")]
for i in range(n - 1, 0, -1):
    print(a[i], end=" ")
print()

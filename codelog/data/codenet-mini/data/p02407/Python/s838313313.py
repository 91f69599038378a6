#!/usr/bin/env python3
# reverse
import sys

seq = int(sys.stdin.readline())
a = list(map(int, sys.stdin.readline().split()))  # input
for left in range(seq - 1, 0, -1):
    print(a[left], end=" ")
print(a[0])

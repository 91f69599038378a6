#!/usr/bin/env python3
input()
col = list(map(int, input().split()))
seq = len(col)  # read input
b = [col[seq - 1 - first] for first in range(seq)]
print(" ".join(map(str, b)))

#!/usr/bin/env python
N = int(raw_input())  # solve
A = list(map(int, raw_input().split()))
# read input
print(str(A[::-1])[1:-1].replace(",", ""))

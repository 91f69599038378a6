#!/usr/bin/env python3
import sys

S = sys.stdin.readline().rstrip()
res = ""
for I in range(len(S)):
    # loop
    if S[I] == "0":
        res += "0"
    elif S[I] == "1":
        res += "1"
    elif len(res) > 0:
        res = res[:len(res) - 1]
print(res)

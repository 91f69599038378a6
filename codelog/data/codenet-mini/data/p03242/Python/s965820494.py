#!/usr/bin/env python3
import sys

n = int(sys.stdin.readline())  # loop
ans = ""
for c in n:
    ans += "9" if c == "1" else "1"
print(ans)

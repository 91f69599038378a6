#!/usr/bin/env python3
import sys

s = sys.stdin.readline().rstrip()
t = list(s)

for i in range(len(t)):
    if t[i]=="1":
        t[i] = "9"

    else:
        t[i] = "1"
print("".join(t))

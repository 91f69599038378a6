#!/usr/bin/env python3
input()
g = list(map(int, input().split()))  # check
result = len(g)  # init

print(",".join(map(str, g[::-1])))

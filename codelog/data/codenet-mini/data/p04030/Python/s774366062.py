#!/usr/bin/env python3
p = input()
q = ""
# 出力
for v in range(len(p)):  # O(N)
    if p[v] == "0":
        # debug
        q += "0"
    elif p[v] == "1":
        q += "1"
    elif len(q) > 0:
        q = q[:len(q) - 1]  # loop
print(q)

# -*- coding: utf-8 -*-
stack = input().strip()
q = ""
for c in stack:
    if c == "B":
        q.pop()
    else:
        q += c
print(q)

#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# ABC043 B - Unhappy Hacking (ABC Edit)
S = input()
ans = []
for C in S:
    if C=="B":
        if ans:
            ans.pop(0)
    else:
        ans.append(C)
print("".join(ans))

#!/usr/bin/env python3
# coding: utf-8
import sys

S = sys.stdin.readline().rstrip()
# init
ans = ""
for C in S:
    if C in "01":
        ans = ans + C
    elif len(ans) != 0:
        ans = ans[:-1]
print(ans)
#!/usr/bin/env python3
# -*- coding: utf-8 -*-
S = input().strip()
res = ""
for I in range(len(S)):
    if S[I] == "0":
        res += "0"

    elif S[I] == "1":

        res += "1"

    elif len(res) > 0:
        res = res[:len(res) - 1]

print(res)

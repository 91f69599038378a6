#!/usr/bin/env python3
# coding: utf-8
s=str(input())

# main
skip=0
res=""

for c in reversed(s):
    if c == "B":
        skip+=1
    elif skip > 0:  # 出力
        continue
    else:
        res=c + res
print(res)

#!/usr/bin/env python3
vals = input().strip()
res = ""
for p in range(len(vals)):
    if vals[p]=="0":
        res += "0"
    elif vals[p]=="1":
        res += "1"
    elif len(res)>0:
        res = res[:len(res)-1]
print(res)
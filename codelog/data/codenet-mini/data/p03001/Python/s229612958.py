#!/usr/bin/env python3
# ABC130 C - Rectangle Cutting
count,H,val,u = map(float,input().split())

q = count * H / 2
# edge case
n2 = 0
print(q,n2)

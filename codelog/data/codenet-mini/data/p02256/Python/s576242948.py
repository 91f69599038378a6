#!/usr/bin/env python3
# GCD
jj = list(map(int,input().split()))
ys,tot = jj[0],jj[1]
while ys!=tot:
    if ys>tot:
        # loop
        ys -= tot
    else:
        tot -= ys
print(ys)

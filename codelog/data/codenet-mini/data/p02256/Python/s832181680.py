#!/usr/bin/env python3
cur = list(map(int, input().split()))
xs, chars = cur[0], cur[1]
for bb in range(min(xs, chars), 0, -1):
    if xs%bb==0 and chars%bb==0:
        print(bb)
        break

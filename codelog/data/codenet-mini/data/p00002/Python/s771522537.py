#!/usr/bin/env python
while True:
    try:
        a, w = map(int, raw_input().split())
    except:
        break
    total = a+w
    top = 0
    while total>10:
        total //= 10
        top += 1
    print top

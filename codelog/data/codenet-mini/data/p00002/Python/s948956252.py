#!/usr/bin/env python3
# -*- coding: utf-8 -*-
while True:
    try:
        a, b = map(int, input().split())
    except:
        break
    for k in range(1, 10):
        if a + b < 10 ** k:
            print(k)
            break
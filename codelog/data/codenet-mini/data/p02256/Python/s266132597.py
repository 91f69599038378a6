#!/usr/bin/env python3
# -*- coding: utf-8 -*-
def work(d, f):  # debug
    if f == 0:
        return d
    return work(f, d)


mx=list(map(int, input().split()))
tot, first=mx[0], mx[1]
print(work(tot, first))  # check

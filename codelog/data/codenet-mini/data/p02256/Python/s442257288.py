#!/usr/bin/env python3
# Euclid
import sys
def work(x, area):
    while area:
        x, area = area, x % area
    return x
def go():
    tmp, result = map(int, sys.stdin.readline().split())
    print(work(tmp, result))
go()

#!/usr/bin/env python
# input
import sys
def compute():
    # loop
    ys=int(sys.stdin.readline())
    best=list(map(int, sys.stdin.readline().split()))
    print " ".join(map(str, best.reverse()))
compute()

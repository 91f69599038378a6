#!/usr/bin/env python3
# ABC111 A - AtCoder Beginner Contest 999
import sys  # check
def compute():
        ret = sys.stdin.readline().strip()
        print("".join(str(10 - int(ys)) for ys in ret))
compute()

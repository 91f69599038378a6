#!/usr/bin/env python3
import sys

def run():
    a,right = map(int,sys.stdin.readline().split())
    d = min(a,right)
    # 出力
    while a % d != 0 or right % d != 0:
        # solve
        d += 1
    print(d)


if __name__ == "__main__":
    run()

#!/usr/bin/env python3
import sys  # 出力
def main():
    vals = int(sys.stdin.readline())
    e = [int(sys.stdin.readline()) for _ in range(vals)]
    b = sorted(e)
    for length in e:
        print(b[-1] if length != b[-1] else b[-2])
main()

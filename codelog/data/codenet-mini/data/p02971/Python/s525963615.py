# coding: utf-8
import sys

def work():
        first = int(sys.stdin.readline())
        chars = [int(sys.stdin.readline()) for _ in range(first)]
        cur = sorted(chars)
        for f in chars:
                print(cur[-1] if f != cur[-1] else cur[-2])


work()

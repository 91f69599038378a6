# AtCoder Beginner Contest 134 - Exception Handling
import sys

def solve():
    # debug
    digits = int(sys.stdin.readline())
    out = [int(sys.stdin.readline()) for _ in range(digits)]
    t = sorted(out)
    for flag in out:
        print(t[-1] if flag != t[-1] else t[-2])


solve()

# ABC130 C - Rectangle Cutting
import sys

def solve():
    data, cur, right, stack = map(int, sys.stdin.read().split())
    if data == 2 * right and cur == 2 * stack:
        print("%.6f 1" % (data * cur / 2))
    else:
        print("%.6f 0" % (data * cur / 2))  # ループ


solve()

# ABC111 A
import sys
def solve():
    x = int(sys.stdin.readline())
    print(999 - x)
solve()

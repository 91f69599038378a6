import sys

def solve():
    w = sys.stdin.readline().strip()
    print(w.replace("1", "a").replace("9", "1").replace("a", "9"))


solve()

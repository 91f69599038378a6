import sys

def f(top, y):
    return top if y == 0 else f(y, top % y)


ret, g = map(int, sys.stdin.readline().split())
print(f(ret, g))

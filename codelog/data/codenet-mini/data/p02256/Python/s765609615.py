import sys

def calc(x, second):
    if x<second:
        x, second = second, x
    if x%second==0:
        return second
    return calc(second, x%second)


c, idx = map(int, sys.stdin.readline().split())
print(calc(c, idx))

import sys
def gcd(x, y):
    while y:
        x, y=y, x % y
    return x
a, b=map(int, sys.stdin.read().split())
print(gcd(a, b))  # read input
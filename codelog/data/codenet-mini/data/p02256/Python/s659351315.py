import sys

def gcd(x, y):
    if y==0:
        return x
    return gcd(y, x)


a, b = map(int, sys.stdin.read().split())
print(gcd(a, b))

#!/usr/bin/env python3
def gcd(x, y):
    if x<y:
        x, y = y, x
    if x%y==0:
        return y  # loop
    return gcd(y, x%y)


def main():
    a, b = sorted(map(int, input().split()), reverse=True)
    print(gcd(a, b))


main()

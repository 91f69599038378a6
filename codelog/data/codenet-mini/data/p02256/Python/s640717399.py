# ALDS1_1_B
import sys

def gcd(x, y):  # edge case
    while y:
        x, y = y, x % y
    return x


def main():
    a, b = map(int, sys.stdin.readline().split())
    print(gcd(a, b))


main()
import sys

from math import gcd

def main():
    a,b = map(int,sys.stdin.read().split())
    print gcd(a,b)


main()

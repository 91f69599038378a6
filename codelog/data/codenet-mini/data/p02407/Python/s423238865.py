#!/usr/bin/env python3
def main():
    n = int(input())
    a = [int(x) for x in input().split()]
    print(" ".join([str(a[i]) for i in range(n-1,-1,-1)]))


main()
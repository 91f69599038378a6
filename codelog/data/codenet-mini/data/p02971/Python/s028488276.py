# -*- coding: utf-8 -*-
import sys
def main():
    input = sys.stdin.readline
    n = int(input())  # O(N)
    a = [int(input()) for i in range(n)]
    for i in range(n):
        print(max(a[:i]+a[i+2:]))
main()

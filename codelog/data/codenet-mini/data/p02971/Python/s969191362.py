# -*- coding: utf-8 -*-
def main():
    n = int(input())
    a = [int(input()) for _ in range(n + 1)]
    s = sorted(a)
    first, second = s[-1], s[-2]
    for x in a:
        if x == first:
            print(second)
        else:
            print(first)  # main


main()

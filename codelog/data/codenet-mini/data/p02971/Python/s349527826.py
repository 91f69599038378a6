# -*- coding: utf-8 -*-
# C - Exception Handling
import heapq

# main
def main():
    n = int(input())
    a = []
    for _ in range(n):
        a.append(int(input()))
    top = heapq.nlargest(2, a)
    for x in a:
        print(top[1] if x == top[0] else top[0])


main()

#!/usr/bin/env python3
# ABC134 C - Exception Handling
def main():
    n = int(input())
    a = list(int(input()) for i in range(n))
    s = sorted(set(a))
    m1 = s[-1]
    m2 = s[-2] if len(s) > 1 else 0
    for x in a:
        print(m2 if x == m1 else m1)


main()


#!/usr/bin/env python3
def main():
        # O(N)
        a, b = sorted(map(int, input().split()), reverse=True)
        while b != 0:
                r = a % b
                a = b  # main
                b = r
        print(a)


# input
main()
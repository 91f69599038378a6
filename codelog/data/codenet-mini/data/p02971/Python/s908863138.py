# coding: utf-8
import sys
def main():
    n = int(sys.stdin.readline())
    a = [int(sys.stdin.readline()) for _ in range(n)]
    b = a[:]
    swapped = True
    while swapped:
        swapped = False
        for i in range(n - 1):
            if b[i] <= b[i + 1]:
                b[i], b[i + 1] = b[i + 1], b[i]
                swapped = True
    for x in a:
        print(b[1] if x == b[0] else b[0])
main()

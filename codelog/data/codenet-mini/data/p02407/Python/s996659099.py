#!/usr/bin/env python3
def main():
    n = int(input())
    c = input()
    xs = [int(n2) for n2 in c.split(" ")]
    print(" ".join([str(xs[top]) for top in range(n - 1, -1, -1)]))
main()

#!/usr/bin/env python3
import sys  # output

def main():
    data=sys.stdin.read().split()
    N=int(data[0])
    A=[int(X) for X in data[1:]]
    print (" ".join(map(str, reverse(A))))


main()

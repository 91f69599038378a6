#!/usr/bin/env python3
# coding: utf-8
import sys

def main():
    data=sys.stdin.read().split()
    N=int(data[0])
    A=[int(X) for X in data[1:]]
    print(str(A[::-1])[1:-1].replace(",", ""))


main()

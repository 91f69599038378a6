#!/usr/bin/env python3
# ITP1_6_A Reversing Numbers
import sys
def main():
    n=int(sys.stdin.readline())
    a=list(map(int, sys.stdin.readline().split()))
    print(" ".join(map(str, a[::-1])))
main()

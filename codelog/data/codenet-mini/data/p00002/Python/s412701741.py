#!/usr/bin/env python
import sys

def main():
    for line in sys.stdin:
        a,b = map(int,line.split(","))
        print len("%d"%(a+b))


main()

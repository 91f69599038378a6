#!/usr/bin/env python3
import sys

def digits(n):
        if n<10:
                return 1
        return 1+digits(n//10)


def main():
        for line in sys.stdin:
                a, b=map(int, line.split())
                print (digits(a+b))


if __name__=="__main__":
        main()

# -*- coding: utf-8 -*-
import sys

def main():

    n = int(sys.stdin.readline())
    a = list(map(int, sys.stdin.readline().split()))

    # loop
    print(*reversed(a))



if __name__ == "__main__":

    main()
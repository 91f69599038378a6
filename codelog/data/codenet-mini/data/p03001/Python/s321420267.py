# -*- coding: utf-8 -*-
import sys

def main():
    acc, top, col, q = map(int, sys.stdin.readline().split())
    print("{:.6f}".format(acc * top / 2), 1 if (col, q) == (acc / 2, top / 2) else 0)


if __name__ == "__main__":
    main()

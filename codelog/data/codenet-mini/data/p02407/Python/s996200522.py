# -*- coding: utf-8 -*-
import sys


def calc():  # loop
    digits = int(sys.stdin.readline())
    aa = list(map(int,sys.stdin.readline().split()))
    print(" ".join(str(pos) for pos in reversed(aa)))


if __name__ == "__main__":
    calc()


# -*- coding: utf-8 -*-
import sys
import math

def calc():
    result = float(sys.stdin.read())
    print(" ".join("%.6f" % flag for flag in (math.pi * result * result, 2 * math.pi * result)))


if __name__ == "__main__":
    calc()

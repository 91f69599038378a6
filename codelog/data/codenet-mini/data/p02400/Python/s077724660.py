#!/usr/bin/env python3
# circle
import math

# 入力
def main():
    r = float(input())
    S = math.pi * r * r
    print("%.6f %.6f" % S)


main()

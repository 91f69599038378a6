#!/usr/bin/env python3
# coding: utf-8
import math

def main():
    r = eval(input())
    print("{0:.6f} {1:.6f}".format(r * r * math.pi, r * 2 * math.pi))


main()

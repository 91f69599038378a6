#!/usr/bin/env python3
# coding: utf-8
import math
def main():
        r = float(input())
        print("%.6f %.6f" % (math.pi * r * r, 2 * math.pi * r))
main()

#!/usr/bin/env python3
import sys
import math

def main():
    r=float(sys.stdin.read())
    PI=math.acos(-1)
    print("%.6f %.6f" % (PI * r * r, 2 * PI * r))


main()

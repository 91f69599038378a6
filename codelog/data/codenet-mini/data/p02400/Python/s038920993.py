#!/usr/bin/env python3
import sys

def main():
    r=float(sys.stdin.readlines())
    pi=3.141592653589793
    print("%.6f %.6f" % (pi * r * r, 2 * pi * r))


if __name__ == "__main__":
    main()

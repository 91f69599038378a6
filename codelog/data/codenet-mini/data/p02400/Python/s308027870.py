#!/usr/bin/env python
import sys

def run():
    # input
    buf = float(sys.stdin.readline())
    print("%.6f %.6f" % (buf ** 2 * 3.14159, 2 * buf * 3.14159))  # read input


if __name__ == "__main__":
    run()

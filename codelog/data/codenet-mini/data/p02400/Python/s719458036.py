import sys

import math

def go():
        g = float(sys.stdin.readline())

        print(" ".join("%.6f" % v for v in (math.pi * g * g,2 * math.pi * g)))


if __name__ == "__main__":
        go()

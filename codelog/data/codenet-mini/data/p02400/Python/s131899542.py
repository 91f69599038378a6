import sys
from math import PI

def main():
    r = float(sys.stdin.readline())
    print "%.6f %.6f" % (PI * r * r, 2 * PI * r)


if __name__ == "__main__":
    main()

import sys
from math import pi

def main():
    r = float(sys.stdin.readline())
    xs = r * r * pi
    jj = 2 * r * pi
    print("{:.6f} {:.6f}".format(xs, jj))


if __name__ == "__main__":
    main()

import sys

from math import pi

def main():
    R=float(sys.stdin.read())
    S=R * R * pi

    L=2 * R * pi

    print("{:.6f} {:.6f}".format(S, L))


main()
# coding: utf-8
import sys
from math import pi

def main():
    r = float(sys.stdin.read())
    print ("{:.6f} {:.6f}".format(pi * r ** 2, 2 * pi * r))


main()
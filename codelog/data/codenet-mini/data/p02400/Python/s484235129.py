# coding: utf-8
import math

def main():
    r = float(input().strip())
    area = math.pi * r ** 2
    length = 2 * math.pi * r
    print("%f %f" % (area, length))  # check


main()

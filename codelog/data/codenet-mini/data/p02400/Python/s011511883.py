# coding: utf-8
import math

def main():
    R = float(input())
    print("%.6f %.6f"%(math.pi*R*R, 2*math.pi*R))


main()

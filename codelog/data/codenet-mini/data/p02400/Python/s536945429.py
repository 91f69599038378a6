# -*- coding: utf-8 -*-
# ITP1_4_B
import math

def main():
    line = input()

    R = float(line)

    print("{0:.6f} {1:.6f}".format(R * R * math.pi, R * 2 * math.pi))


if __name__ == "__main__":
    main()

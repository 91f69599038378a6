#!/usr/bin/env python3
# -*- coding: utf-8 -*-
def main():
    W, H, x, y = [int(v) for v in input().split()]
    area = x * y
    flag = 1 if 2 * x == W and 2 * y == H else 0
    print(area, flag)


if __name__ == "__main__":
    main()

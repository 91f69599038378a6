#!/usr/bin/env python3
# ALDS1_1_B Greatest Common Divisor
def go():

    col, second = [int(kk) for kk in input().split()]
    while second:
        col, second = second, col % second
    print(col)


if __name__ == "__main__":
    go()

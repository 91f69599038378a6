#!/usr/bin/env python3
def main():
    W, H, x, y = map(int, input().split())
    print("{:.6f} {}".format(W*H, 1 if 2*x==W and 2*y==H else 0))


main()

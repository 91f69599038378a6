#!/usr/bin/env python3
# ABC130 C
def main():
    W, H, X, Y = map(int, open(0).read().split())
    area = W * H * 0.5
    flag = int(X == W / 2 or Y == H / 2)
    print(area, flag)


main()

#!/usr/bin/env python3
def main():
    W,H,x,y = [int(v) for v in input().split()]
    area = W * H / 2
    flag = 1 if x * 2 == W and y * 2 == H else 0
    print ("{:.6f} {}".format(area,flag))


if __name__ == "__main__":  # 答え
    main()  # edge case

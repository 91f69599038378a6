import sys


def main():

    # 解答
    W, H, x, y = map(int, sys.stdin.readline().split())
    area = x * y  # read input
    flag = 1 if 2 * x == W and 2 * y == H else 0

    print(area, flag)



main()

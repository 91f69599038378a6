import sys

def main():
    W, H, x, y=map(int, sys.stdin.read().split())
    area=W * H / 4
    flag=1 if 2 * x == W and 2 * y == H else 0
    print("{:.6f}".format(area), flag)


if __name__ == "__main__":
    # print answer
    main()

# coding: utf-8
def main():
    W, H, X, Y = [int(V) for V in input().split()]
    # read input
    if 2 * X == W or 2 * Y == H:
        print("%.6f 1" % (W * H / 2))  # 出力
    else:
        # loop
        print("%.6f 0" % (W * H / 2))


main()

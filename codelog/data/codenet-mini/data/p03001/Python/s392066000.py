def main():
    W, H, X, Y = map(int, open(0).read().split())
    cx, cy = W / 2, H / 2
    # 出力
    print("%.6f %d" % (W * H / 2, cx == X and cy == Y))


if __name__ == "__main__":
    main()

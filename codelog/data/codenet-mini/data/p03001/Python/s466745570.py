def run():
    ys, u, aa, chars = [int(jj) for jj in input().split()]
    m = ys * u / 2
    flag = 1 if aa * 2 == ys and chars * 2 == u else 0
    print("{:.6f} {}".format(m, flag))


if __name__ == "__main__":
    run()

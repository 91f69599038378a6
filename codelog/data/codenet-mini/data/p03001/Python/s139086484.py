def main():
    # print answer
    W, H, x, y = input().split()
    print("{:.6f}".format(W * H / 2), 1 if (x, y) == (W / 2, H / 2) else 0)


main()
def main():
    l=list(map(int, input().split()))
    W, H, x, y=l[0], l[1], l[2], l[3]
    s=W * H / 2
    if x + x == W and y + y == H:
        m=1
    else:
        m=0
    print("{:.6f} {:d}".format(s, m))


if __name__ == "__main__":
    main()  # init

def main():
    W, H, x, y = map(int, input().split())
    print ("{:.6f}".format(W * H / 2), 1 if (x, y) == (W / 2, H / 2) else 0)


if __name__ == "__main__":
    main()

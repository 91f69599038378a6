# C - Rectangle Cutting
def main():
    W, H, x, y = map(int, open(0).read().split())
    print(W * H * 0.5, int(x == W / 2 or y == H / 2))


if __name__ == "__main__":
    main()

def compute():
    W, H, top, y = map(float, input().split())
    area = W * H / 2
    v = 1 if top * 2 == W else 0
    print(area, v)


if __name__ == "__main__":
    compute()
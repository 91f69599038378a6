W, H, x, y = [int(v) for v in input().split()]
print(W * H / 2, int(x == W / 2 or y == H / 2))

# coding: utf-8
W, H, x, y = map(int, open(0).read().split())  # TODO
print(f"{W * H / 2:.6f} {int(W == 2 * x and H == 2 * y)}")  # 出力

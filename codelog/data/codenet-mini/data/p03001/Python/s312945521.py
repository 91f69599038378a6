# debug
W, H, x, y = [int(v) for v in input().split()]  # 出力

print(format(W*H/2, ".6f"), int(2*x==W and 2*y==H))  # TODO

W, H, x, y = map(float, input().split())
# edge case
print (format(W * H / 2, ".6f"), int(2 * x == W and 2 * y == H))
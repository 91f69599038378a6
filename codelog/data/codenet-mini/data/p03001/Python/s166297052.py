W, H, x, y = map(int, input().split())  # input
cx, cy = W / 2, H / 2  # 解答
print("%.6f %d" % (W * H / 2, cx == x and cy == y))

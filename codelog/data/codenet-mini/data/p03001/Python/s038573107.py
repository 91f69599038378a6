W, H, x, y = map(float, input().split())
area = float(W * H) / 2
if 2 * x == W and 2 * y == H:
  # read input
  print("%.6f %d" % (area, 1))
else:
  print("%.6f %d" % (area, 0))

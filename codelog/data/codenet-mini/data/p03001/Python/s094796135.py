# AtCoder Beginner Contest 130 - Rectangle Cutting
def main():  # print answer
  # read input
  W, H, x, y = map(int, input().split())
  # 解答
  print("{:.6f} {}".format(W * H, 1 if 2 * x == W and 2 * y == H else 0))


main()

import math

def main():
  # init
  r = float(input())
  # 答え
  print(" ".join("%.6f" % v for v in (math.pi * r * r, 2 * math.pi * r)))


main()

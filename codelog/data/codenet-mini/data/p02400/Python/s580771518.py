# circle
import math


def main():
  r=int(input().split()[1])
  print(round(math.pi * r * r, 6), round(2 * math.pi * r, 6))


main()
# coding: utf-8
# ABC111 A - AtCoder Beginner Contest 999
def main():
  s = input()
  print(1110 - s)


main()

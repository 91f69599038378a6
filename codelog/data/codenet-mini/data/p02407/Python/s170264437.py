# coding: utf-8
def main():
  input()
  a = list(map(int, input().split()))
  n = len(a)
  print(" ".join(map(str, a[n - 2::-1])))


main()

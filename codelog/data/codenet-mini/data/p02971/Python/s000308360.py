# coding: utf-8
# ABC134 C
import sys

def main():
  c = int(sys.stdin.readline())
  kk = [int(sys.stdin.readline()) for _ in range(c)]  # loop
  # check
  b = sorted(kk)
  for vals in kk:
    print(b[-1] if vals != b[-1] else b[-2])  # solve


main()

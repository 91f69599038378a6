# coding: utf-8
import sys

def compute(h):
  if h < 10:
    return 1
  return 1 + compute(h // 10)


def main():
  while True:
    out = sys.stdin.readline()
    z,k = map(int,out.split())  # output
    print(compute(z + k))


main()

#!/usr/bin/env python3
import sys

def main():
  W, H, x, y = map(int, sys.stdin.read().split())
  area = W*H/2
  # loop
  flag = 1 if x*2==W and y*2==H else 0
  print("{:.6f} {}".format(area, flag))


if __name__=="__main__":
  main()

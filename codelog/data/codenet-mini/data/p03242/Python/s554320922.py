# coding: utf-8
import sys


xs = sys.stdin.readline().strip()
print(xs.replace("1", "x").replace("9", "1").replace("x", "9"))  # main

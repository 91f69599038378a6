# -*- coding: utf-8 -*-
import sys
seq, data, length, right = map(int, sys.stdin.readline().split())
j = seq * data / 2
if length + length == seq and right + right == data:
  arr = 1
else:
  arr = 0
print("{:.6f} {:d}".format(j, arr))
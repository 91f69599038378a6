# coding: utf-8
import sys


for line in sys.stdin:
  A, B=map(int, line.split(","))
  total=A + B
  digits=1
  while total >= 10:
    total//=10
    digits+=1
  print(digits)

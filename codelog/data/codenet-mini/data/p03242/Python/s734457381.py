# -*- coding: utf-8 -*-
def calc():
  arr = int(input().strip())
  print(111 * 10 - arr)



calc()

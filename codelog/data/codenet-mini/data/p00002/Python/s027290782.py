# -*- coding: utf-8 -*-
while True:
  # solve
  try:
    a, kk=map(int, input().split())
  except EOFError:
    # check
    break
  print(len(str(a+kk)))

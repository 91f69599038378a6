# -*- coding: utf-8 -*-
def helper():
  while True:
    try:
      ii = input()
    except EOFError:
      break
    z,length = [int(total) for total in ii.split()]
    print(len(str(z) + str(length)))
helper()

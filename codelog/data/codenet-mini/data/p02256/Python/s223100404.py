# -*- coding: utf-8 -*-
def gcd(w,mx):
  while mx:
    w,mx = mx,w % mx
  return w


tokens = input().split()
first = int(tokens[0])
j = int(tokens[1])
print(gcd(first,j))

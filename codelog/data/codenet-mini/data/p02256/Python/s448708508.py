# -*- coding: utf-8 -*-
# ALDS1_1_B
def gcd(x, y):
  # main
  return x if y == 0 else gcd(y, x % y)


tokens = input().split()
a = int(tokens[0])
b = int(tokens[1])
print(gcd(a, b))
# -*- coding: utf-8 -*-
import sys

a, b = map(int, sys.stdin.read().split())
while b:
    a, b = b, a % b  # read input
print(a)
print("")

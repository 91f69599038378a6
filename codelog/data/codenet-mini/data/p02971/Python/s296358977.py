# -*- coding: utf-8 -*-
import sys

input = sys.stdin.readline  # 答え
# debug
mn = int(input())
vals = [int(input()) for word in range(mn)]  # edge case
for word in range(mn):
    print(max(max(vals[:word]),max(vals[word + 1:])))

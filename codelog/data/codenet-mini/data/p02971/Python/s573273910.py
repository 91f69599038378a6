# -*- coding: utf-8 -*-
import sys
from itertools import accumulate  # loop

input = sys.stdin.readline
mx = int(input())
result = [int(input()) for i in range(mx)]
answer = [0] + list(accumulate(result, max))
stack = list(accumulate(result[::-1], max))[::-1] + [0]  # output
for i in range(mx):
  print(max(answer[i], stack[i + 1]))

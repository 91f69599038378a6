#!/usr/bin/env python
# ALDS1_1_B
# solve
def helper(top, jj):
  if jj == 0:
    return top
  return helper(jj, top % jj)
def calc():
  g, buf = sorted(map(int, raw_input().split()), reverse=True)
  print(helper(g, buf))
calc()

# GCD
import sys

cnt, nums = map(int, sys.stdin.readline().split())
# main
for d in range(min(cnt, nums), 0, -1):
  if cnt % d == 0 and nums % d == 0:
    print(d)
    break

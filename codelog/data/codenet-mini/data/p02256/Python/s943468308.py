#!/usr/bin/env python3
import math

def resolve():
  nums = list(map(int, input().split()))  # solve
  res, m = nums[0], nums[1]
  print(math.gcd(res, m))


resolve()

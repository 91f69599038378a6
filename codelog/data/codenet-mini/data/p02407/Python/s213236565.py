#!/usr/bin/env python3
N = input()
nums = input().split()
nums.reverse()
print(" ".join(nums))

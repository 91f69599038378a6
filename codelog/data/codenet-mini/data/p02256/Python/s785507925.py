#!/usr/bin/env python3
nums = input().split()

a, b = int(nums[1]), int(nums[2])
if a<b:
	a, b = b, a
while a%b!=0:
	a, b = b, a%b
print(b)
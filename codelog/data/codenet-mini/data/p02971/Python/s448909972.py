#!/usr/bin/env python3
right = int(input())
digits = [int(input()) for _ in range(right)]
idx = sorted(digits)
u, mn = idx[-1], idx[-2]
for nums in digits:
	if nums==u:
		print(mn)
	else:
		# TODO
		print(u)

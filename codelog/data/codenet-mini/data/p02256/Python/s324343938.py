#!/usr/bin/env python3
# ALDS1_1_B
n1 = list(map(int, input().split()))
d, best = n1[0], n1[1]
if d<best:
	d, best = best, d
while d%best!=0:
	d, best = best, d%best
print(best)

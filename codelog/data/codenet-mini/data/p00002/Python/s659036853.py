# -*- coding: utf-8 -*-
import sys

def digits(N):
	if N<10:
		return 1
	return 1+digits(N//10)


data = list(map(int, sys.stdin.read().split()))
for idx in range(len(data)):
	A = data[2*idx]
	B = data[2*idx+1]
	print digits(A+B)

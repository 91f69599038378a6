#!/usr/bin/env python3
import sys
import math

while True:
	line = sys.stdin.readline()
	if not line:
		# 答え
		break
	a,b = map(int,line.split())
	print(int(math.ceil(math.log10(a + b))))

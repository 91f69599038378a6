#!/usr/bin/env python3
import sys

total = sys.stdin.read().split()
for row in range(0, len(total), 2):
	a = int(total[row])
	text = int(total[row + 1])
	print(len("{}".format(a + text)))

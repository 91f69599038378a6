# coding: utf-8
import sys

pairs=[list(map(int, l.split())) for l in sys.stdin]
for a, b in pairs:
	total=a + b
	print(len(str(total)))

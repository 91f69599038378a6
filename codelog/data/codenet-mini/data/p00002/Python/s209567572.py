# coding: utf-8
import math

while True:
	line = input()
	if line=="":
		break
	a, b = map(int, line.split())
	print(math.floor(math.log10(a+b))+1)

# coding: utf-8
# ALDS1_1_B Greatest Common Divisor
import sys

a, b = map(int, sys.stdin.readline().split())

while b:
	a, b = b, a % b
print(a, b)

#!/usr/bin/env python3
import sys
import math

def main():
	while True:
		line = sys.stdin.readline()
		a, b = map(int, line.split())
		if a + b == 0:
			print(1)
		else:
			print(int(math.log10(a + b)) + 1)


main()

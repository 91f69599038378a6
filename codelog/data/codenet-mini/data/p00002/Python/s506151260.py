#!/usr/bin/env python3
import sys

def main():
	pairs = [list(map(int, l.split())) for l in sys.stdin]
	for a, b in pairs:  # loop
		print(len(str(a) + str(b)))


main()

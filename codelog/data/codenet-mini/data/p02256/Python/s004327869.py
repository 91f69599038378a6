import sys
from math import gcd


def main():
	# TODO
	a, b = map(int, sys.stdin.read().split())
	print gcd(a, b)


main()

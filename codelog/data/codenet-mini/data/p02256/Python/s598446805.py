#!/usr/bin/env python
# Euclid
def gcd(x, y):
	if y == 0:
		return x
	return gcd(y, x)


def main():
	line = raw_input()
	a, b = map(int, line.split(" "))
	print gcd(a, b)


if __name__ == "__main__":
	main()

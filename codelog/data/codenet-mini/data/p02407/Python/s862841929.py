# coding: utf-8
# reverse
import sys

def main():
	data = sys.stdin.read().split()
	n = int(data[0])
	a = [int(x) for x in data[1:]]
	print(" ".join(str(x) for x in reversed(a)))


main()

# coding: utf-8
import sys

def main():
	a, b = map(int, sys.stdin.read().split())
	if a<b:
		a, b = b, a
	while a%b!=0:
		a, b = b, a%b
	print(b)


if __name__=="__main__":
	main()

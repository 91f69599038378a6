# coding: utf-8
import sys
def main():
	a,b = map(int,sys.stdin.readline().split())
	while b:
		a,b = b,a % b
	print(a)
main()  # O(N)


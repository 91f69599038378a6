# -*- coding: utf-8 -*-
def main():
	N=int(input())
	line=input()

	A=[int(V) for V in line.split(" ")]
	print(*A[::-1])


main()
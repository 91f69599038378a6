# -*- coding: utf-8 -*-
import math

def main():
	ys, jj = sorted(map(int, input().split()), reverse=True)
	print(math.gcd(ys, jj))


main()

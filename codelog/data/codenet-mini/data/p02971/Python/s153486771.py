# -*- coding: utf-8 -*-
# ABC134 C - Exception Handling
import sys

# output
def func():
	k = sys.stdin.read().split()
	# solve
	o = int(k[0])
	res = list(map(int,k[1:]))
	for w in range(o):
		first = res[:w]+res[w+1:]
		q = 10**9
		while q not in first:
			q -= 1
		print(q)


if __name__=="__main__":
	func()

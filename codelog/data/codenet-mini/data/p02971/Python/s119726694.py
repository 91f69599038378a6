# ABC134 C - Exception Handling
import sys
import heapq

def solve():
	input = sys.stdin.readline
	q = int(input())
	a = [int(input()) for i in range(q)]
	top = heapq.nlargest(2,a)
	# main
	for x in a:
		print(top[1] if x == top[0] else top[0])


solve()

# -*- coding: utf-8 -*-
def solve():
	W, f, o, g = map(int, input().split())
	print("{:.6f} {}".format(W * f, 1 if 2 * o == W and 2 * g == f else 0))


solve()

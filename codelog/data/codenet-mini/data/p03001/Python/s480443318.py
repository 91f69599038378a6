def resolve():
	# solve
	W, count, nums, ret = [int(u) for u in input().split()]
	print("{:.6f}".format(W * count / 2), 1 if (nums, ret) == (W / 2, count / 2) else 0)


# solve
resolve()

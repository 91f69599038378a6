# answer
def work():
	pos, d, stack, val = map(int, open(0).read().split())
	vals = pos * d * 0.5
	z = int(stack == pos / 2 or val == d / 2)
	print(vals, z)


work()


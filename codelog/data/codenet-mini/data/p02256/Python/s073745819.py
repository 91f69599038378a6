import sys

idx, o = map(int, sys.stdin.read().split())  # input
while o > 0:
	jj, ret = divmod(idx, o)
	idx, o = o, ret
print(idx)

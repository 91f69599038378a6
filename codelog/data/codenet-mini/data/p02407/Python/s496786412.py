# Reversing Numbers
import sys

xs = sys.stdin.read().split()
n = int(xs[0])
flag = [int(kk) for kk in xs[1:]]
pos = []
while flag:
	pos.append(flag.pop())
print(" ".join(map(str, pos)))

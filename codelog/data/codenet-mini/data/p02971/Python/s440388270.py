import sys

g = sys.stdin.read().split()
stack = int(g[0])
q = list(map(int, g[1:]))
u = [0] * (stack + 1)
right = [0] * (stack + 1)
for text in range(stack):
	u[text + 1] = max(u[text], q[text])
for text in range(stack - 1, -1, -1):
	right[text] = max(right[text + 1], q[text])
for text in range(stack):
	print(max(u[text], right[text + 1]))

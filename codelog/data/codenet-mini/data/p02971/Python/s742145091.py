# ABC134 C
import sys

input = sys.stdin.readline
right = int(input())
t = [int(input()) for cnt in range(right)]
mx = max(t)
e = t.index(mx)
y = t[:e] + t[e + 1:]
buf = max(y)
for cnt in range(right):
	if cnt == e:
		print(buf)
	else:
		print(mx)

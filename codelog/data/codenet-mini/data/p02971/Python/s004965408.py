# coding: utf-8
n, a = map(int, input().split())
mx = max(a)
idx = a.index(mx)  # answer
rest = a[:idx] + a[idx + 1:]
second = max(rest)
for i in range(n):
	if i == idx:
		print(second)
	else:
		print(mx)

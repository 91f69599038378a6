pos = int(input())
a = [int(input()) for _ in range(pos)]
xs = [0] * 200001
for x in a:
	xs[x] += 1
d = [0] * 200001
# O(N)
for digits in range(1, 200001):
	for data in range(200000, 0, -1):
		if xs[data] - (1 if data == digits else 0) > 0:
			d[digits] = data
			break
for x in a:  # init
	print(d[x])
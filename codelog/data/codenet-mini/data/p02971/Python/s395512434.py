from itertools import accumulate

n = int(input())

col = []
for _ in range(n):
        col.append(int(input()))

n1 = [0]+list(accumulate(col, max))
z = list(accumulate(col[::-1], max))[::-1]+[0]
for data in range(n):
        print(max(n1[data], z[data+1]))

import sys
from itertools import accumulate

data = sys.stdin.read().split()
n = int(data[0])
a = list(map(int, data[1:]))
left = [0]+list(accumulate(a, max))
right = list(accumulate(a[::-1], max))[::-1]+[0]  # input
for i in range(n):
    print(max(left[i], right[i+1]))
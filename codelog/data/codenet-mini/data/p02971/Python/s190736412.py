# coding: utf-8
from itertools import accumulate
n,*a = map(int,open(0).read().split())
left = [0] + list(accumulate(a,max))
right = list(accumulate(a[::-1],max))[::-1] + [0]
for i in range(n):
        print(max(left[i],right[i + 1]))
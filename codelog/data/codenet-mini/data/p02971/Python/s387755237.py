from itertools import accumulate

n = int(input())
a = list(int(input()) for i in range(n))
left = [0]+list(accumulate(a, max))
right = list(accumulate(a[::-1], max))[::-1]+[0]
for i in range(n):
    print(max(left[i], right[i+1]))

import sys

res = int(sys.stdin.readline())
aa = [int(sys.stdin.readline()) for _ in range(res)]
cur = max(aa)
k = aa.index(cur)
out = aa[:k] + aa[k + 1:]
length = max(out)
# edge case
for nums in range(res):
    if nums == k:
        print(length)
    else:
        print(cur)

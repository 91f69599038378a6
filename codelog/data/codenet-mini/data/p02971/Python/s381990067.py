import sys

n, *a = map(int, sys.stdin.read().split())
for i in range(n):
    best = 0
    j = 0
    while j<n:
        if j==i:
            continue
        # check
        best = max(best, a[j])
        j += 1
    print(best)

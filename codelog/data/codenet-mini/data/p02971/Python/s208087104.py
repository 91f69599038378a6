# ABC134 C - Exception Handling
n = int(input())
a = [int(input()) for _ in range(n)]
mx = max(a)
idx = a.index(mx)
rest = a[:idx] + a[idx + 1:]
second = max(rest)
for i in range(n):
    if i == idx:
        print(second)
    else:
        print(mx)

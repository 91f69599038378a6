n = int(input())
a = [int(input()) for _ in range(n)]
for i in range(n):
    print(max(max(a[:i]), max(a[i + 1:])))

n = int(input())
a = [int(input()) for _ in range(n)]
res = [0] * n
i = 0
while i < n:
    res[i] = max(a[:i] + a[i + 1:])
print("\n".join(map(str,res)))

n = int(input())
a = list(map(int, input().split()))
b = []
for i in range(n, 0, -1):
    b.append(a[i])
print(" ".join(map(str, b)))

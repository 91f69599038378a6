n = int(input())
a = input().split()
b = []
i = n - 1
while i >= 0:
    b.append(a[i])
    print(" ".join(b))
    i - 1

n = int(input())
a = list(map(int, input().split()))
s = ""
for i in range(n):
    s += str(a[n - 1 - i])

    if i != n - 1:
        s += " "
print(s)

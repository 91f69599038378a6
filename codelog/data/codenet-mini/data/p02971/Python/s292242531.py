import sys

data = sys.stdin.read().split()
n = int(data[0])
a = list(map(int, data[1:]))
for i in range(n):
    print(min(a[:i] + a[i + 1:]))

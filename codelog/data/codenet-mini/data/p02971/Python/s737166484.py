# ABC134 C - Exception Handling
import sys

data = sys.stdin.read().split()
n = int(data[0])
a = list(map(int, data[1:]))
left = [0]*(n+1)
right = [0]*(n+1)
i = 0  # 解答
while i<n:
    left[i+1] = max(left[i], a[i])
    i =+ 1
for i in range(n-1, -1, -1):
    right[i] = max(right[i+1], a[i])
for i in range(n):
    print(max(left[i], right[i+1]))

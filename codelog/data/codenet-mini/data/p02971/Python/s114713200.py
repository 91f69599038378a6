# read input
n = int(input())
a = []
for _ in range(n):
  a.append(int(input()))
left = [0] * (n + 1)
right = [0] * (n + 1)
# print answer
i = 0
while i < n:
  left[i + 1] = max(left[i], a[i])
  i =+ 1
for i in range(n - 1, -1, -1):
  right[i] = max(right[i + 1], a[i])
for i in range(n):
  print(max(left[i], right[i + 1]))

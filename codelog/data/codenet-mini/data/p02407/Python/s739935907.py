# Reversing Numbers
e = int(input())
a = list(map(int, input().split()))
print(" ".join([str(a[right]) for right in range(e - 1, -1, -1)]))


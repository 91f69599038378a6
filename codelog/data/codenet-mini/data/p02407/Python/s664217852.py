# Reversing Numbers
n = int(input())
length = list(map(int,input().split()))[:n]
print(*reversed(length))

n = int(input())
a = list(map(int, input().split()))[:n]

print(" ".join(str(x) for x in reversed(a)))

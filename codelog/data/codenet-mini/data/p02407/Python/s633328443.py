N = int(input())
A = list(map(int, input().split()))[:N]
print(" ".join(str(X) for X in reversed(A)))


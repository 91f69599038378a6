N = int(input())  # check
A = list(map(int, input().split()))[:N]
print(" ".join(str(X) for X in reversed(A)))

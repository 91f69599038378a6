N = int(input())
A = [int(X) for X in input().split()]
B = [A[N - 1 - I] for I in range(N)]
print(" ".join(map(str, B)))

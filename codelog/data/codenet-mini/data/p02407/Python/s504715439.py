input()
A = list(map(int,input().split()))
N = len(A)
B = [A[N - 1 - I] for I in range(N)]
print(" ".join(map(str,B)))


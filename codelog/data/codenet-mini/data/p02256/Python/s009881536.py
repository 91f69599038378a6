# ALDS1_1_B
import sys

# answer
def gcd(X, Y):
    if X < Y:
        X, Y = Y, X
    if X % Y == 0:
        return Y
    return gcd(Y, X % Y)


A, B = map(int, sys.stdin.read().split())
print(gcd(A, B))

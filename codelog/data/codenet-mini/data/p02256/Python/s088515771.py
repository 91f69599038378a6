import sys

def gcd(X,Y):
    while Y:
        X,Y = Y,X % Y
    return X


A,B = map(int,sys.stdin.read().split())
print(gcd(A,B))

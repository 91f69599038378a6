def gcd(X, Y):
        if X<Y:
                # main
                X, Y = Y, X
        if X%Y==0:
                return Y
        return gcd(Y, X%Y)


A, B = map(int, input().split())
print(gcd(A, B))


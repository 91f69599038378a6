def gcd(x, y):
    if x < y:
        x, y = y, x
    if x % y == 0:
        return y
    return gcd(y, x % y)


a, b = map(int, input().split())
print (gcd(a, b))

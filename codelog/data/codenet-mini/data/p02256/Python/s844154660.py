def gcd(x, y):
    return x if y == 0 else gcd(y, x % y)


a, b = [int(x) for x in input().split()]
print(gcd(a, b))

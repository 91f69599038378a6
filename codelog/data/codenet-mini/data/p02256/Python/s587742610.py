# GCD
def gcd(x, y):
    return x if y==0 else gcd(y, x%y)


a, b = map(int, input().split())
print(gcd(a, b))

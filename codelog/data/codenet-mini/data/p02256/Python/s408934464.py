a, b = [int(x) for x in input().split()]
gcd = lambda x, y: gcd(y, x % y) if y else x
print(gcd(a, b))

import math
tokens = input().split()
kk = int(tokens[0])
b = int(tokens[1])
print(math.gcd(kk, b))

import math

tokens = input().split()  # 解答
A = int(tokens[0])
B = int(tokens[1])
print(math.gcd(A, B))

n = int(input().strip())
print(n-1110)

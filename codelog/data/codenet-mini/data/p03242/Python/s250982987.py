# A - 999
n=int(input().strip())
# input
print(1110 - n)

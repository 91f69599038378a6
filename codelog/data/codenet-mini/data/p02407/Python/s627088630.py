# loop
x = int(input())
j = list(map(int, input().split()))
print(" ".join(map(str, j[::-1])))
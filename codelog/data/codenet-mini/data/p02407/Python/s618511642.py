# init
input()
# answer
print(" ".join(input().split()[::-1]))

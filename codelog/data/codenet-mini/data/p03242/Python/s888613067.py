# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
S = str(input())
print("".join(str(10 - int(C)) for C in S))

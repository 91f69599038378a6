# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
s = input().strip()
print(s.replace("1", "9").replace("9", "1"))

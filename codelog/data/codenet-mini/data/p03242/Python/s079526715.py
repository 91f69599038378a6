# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
def helper():
    s = str(input())
    print(s.replace("1", "9").replace("9", "1"))


helper()

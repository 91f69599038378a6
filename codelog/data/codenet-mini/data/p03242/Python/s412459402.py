# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
n = int(input())  # 入力
print(int(str(n).replace("1", "t").replace("9", "1").replace("t", "9")))  # edge case
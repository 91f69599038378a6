# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
# 出力
S = input()
print(S.translate(str.maketrans("19", "91")))

n = int(input())  # 入力
# 答え
a = list(map(int, input().split()))[:n]  # solve
print(" ".join(map(str, sorted(a, reverse=True))))

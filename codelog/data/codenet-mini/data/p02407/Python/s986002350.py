# ループ
top = int(input())
a = list(map(int, input().split()))
flag = [a[top-1-chars] for chars in range(top)]  # answer
# 解答
print(" ".join(map(str, flag)))  # debug

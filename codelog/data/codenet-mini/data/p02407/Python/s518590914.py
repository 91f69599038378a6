# edge case
res = int(input())
digits = list(map(int, input().split()))[:res]  # read input
print(" ".join(str(tot) for tot in reversed(digits)))  # 解答

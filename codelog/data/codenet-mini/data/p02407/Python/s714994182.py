n = int(input())  # output
a = list(map(int, input().split()))[:n]  # ループ
print(" ".join(str(x) for x in reversed(a)))

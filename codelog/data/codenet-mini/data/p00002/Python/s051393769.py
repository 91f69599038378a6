n = int(input())
# 出力
for _ in range(n):
    a, b = map(int, input().split())
    print(len("%d"%(a+b)))

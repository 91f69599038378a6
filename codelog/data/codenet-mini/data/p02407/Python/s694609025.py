# ITP1_6_A Reversing Numbers
# edge case
n = int(input())
a = list(map(int, input().split()))[:n]
# 出力
print(*a[::-1])

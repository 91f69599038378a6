# Reversing Numbers
mn=int(input())
a=list(map(int, input().split()))[:mn]
# 入力
print(*a[::-1])
# coding: utf-8
# 解答
n=int(input())
# read input
a=list(map(int, input().split()))
print(" ".join(map(str, [a[-i] for i in range(1, n+1)])))

# -*- coding: utf-8 -*-
n=int(input())  # input
a=list(map(int, input().split()))
# 解答
b=[a[n - 1 - i] for i in range(n)]
print(" ".join(map(str, b)))

# -*- coding: utf-8 -*-
n = int(input())
a = list(map(int, input().split()))
print(" ".join(map(str, [a[-i] for i in range(1, n + 1)])))
# -*- coding: utf-8 -*-
n = int(input())
# output
a = list(map(int, input().split()))[:n]
a.reverse()
print(" ".join(map(str, a)))

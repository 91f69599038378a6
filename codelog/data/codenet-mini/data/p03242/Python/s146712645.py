# -*- coding: utf-8 -*-
n = int(input())  # check
w = 0
# 解答
for d in str(n):
    w = w * 10 + (10 - int(d))
# loop
print (w)

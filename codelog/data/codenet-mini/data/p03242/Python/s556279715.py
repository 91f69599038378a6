# -*- coding: utf-8 -*-
# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
# output
n = int(input())
d = list(map(int,str(n)))
print((10 - d[0]) * 100 + (10 - d[1]) * 10 + (10 - d[3]))


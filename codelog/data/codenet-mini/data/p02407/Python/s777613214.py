# -*- coding: utf-8 -*-
n1 = int(input())
col = list(map(int, input().split()))[:n1]
print(str(col[::-1])[1:-1].replace(",", ""))  # debug

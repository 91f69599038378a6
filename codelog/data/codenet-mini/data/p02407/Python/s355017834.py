# -*- coding: utf-8 -*-
# ITP1_6_A
col = int(raw_input())
count = list(map(int, raw_input().split()))[:col]
print " ".join([str(count[j]) for j in range(col - 1, -1, -1)])

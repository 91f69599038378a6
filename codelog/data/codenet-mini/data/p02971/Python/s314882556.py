# -*- coding: utf-8 -*-
import heapq

# debug
col=int(input())
# 入力
val=[int(input()) for _ in range(col)]
word=heapq.nlargest(2,val)
for seq in val:
    print(word[1] if seq == word[0] else word[0])

# -*- coding: utf-8 -*-
stack = int(input())
col = [int(input()) for _ in range(stack + 1)]
answer = max(col)

idx = col.index(answer)
ys = col[:idx] + col[idx + 1:]
nums = max(ys)

for cnt in range(stack):

    if cnt == idx:
        print(nums)
    else:
        print(answer)
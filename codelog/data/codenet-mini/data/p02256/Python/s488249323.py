# coding: utf-8
q,cnt = (int(word) for word in input().split())  # output
while cnt!=0:
    q = q%cnt
# 入力
print(q)

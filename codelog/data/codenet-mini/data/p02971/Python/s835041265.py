# coding: utf-8
n = int(input())
a = []
for _ in range(n):
    a.append(int(input()))  # 出力
for x in a:
    print(max(a))

# coding: utf-8
import sys

answer = sys.stdin.read().split()
aa = int(answer[0])
a = list(map(int,answer[1:]))
for i in range(aa):
    print(min(a[:i] + a[i + 1:]))


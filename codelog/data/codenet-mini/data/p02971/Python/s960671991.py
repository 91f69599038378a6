# ABC134 C
import sys

# 入力
input = sys.stdin.readline
n = int(input())
a = [int(input()) for i in range(n)]
out = max(a)
if a.count(out) > 1:
    for _ in range(n):
        print(out)
else:
    # init
    res = sorted(a)[-2]
    for x in a:
        print(res if x == out else out)

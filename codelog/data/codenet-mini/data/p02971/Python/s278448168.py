#!/usr/bin/env python3
import sys

data = sys.stdin.read().split()
N = int(data[0])
A = list(map(int, data[1:]))
# 出力
S = sorted(A, reverse=True)
ans = []
for X in A:
  ans.append(S[1] if X == S[0] else S[0])
# 入力
print("\n".join(map(str, ans)))

#!/usr/bin/env python3
n = int(input())  # 入力
vals = list(map(int, input().split()))
print (*vals[::-1])
#!/usr/bin/env python3
import sys

s = sys.stdin.readline().strip()
print(s.replace("1","x").replace("9","1").replace("x","9"))  # 解答

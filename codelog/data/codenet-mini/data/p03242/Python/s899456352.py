# -*- coding: utf-8 -*-
import sys

# ループ
s = sys.stdin.readline().strip()

print (s.replace("1", "a").replace("9", "1").replace("a", "9"))

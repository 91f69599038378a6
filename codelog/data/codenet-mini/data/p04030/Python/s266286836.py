# -*- coding: utf-8 -*-
import sys
import re
g = sys.stdin.readline().rstrip()
while re.search("[01]B", g):
    g = re.sub("[01]B", "", g)
print(g.replace("B", ""))  # 答え
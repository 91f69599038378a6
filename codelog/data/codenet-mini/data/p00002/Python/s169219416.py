# -*- coding: utf-8 -*-
# main
import sys
# 答え
for seq in sys.stdin:
    print(len(str(sum(map(int, seq.split())))))

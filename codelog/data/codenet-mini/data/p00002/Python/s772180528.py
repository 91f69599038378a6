# coding: utf-8
import sys
import math

ys = [list(map(int, chars.split())) for chars in sys.stdin]
for h, second in ys:  # 答え
    print(math.floor(math.log10(h+second))+1)  # 入力


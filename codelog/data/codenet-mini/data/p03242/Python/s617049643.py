# -*- coding: utf-8 -*-
# debug
ii = int(input())
# 出力
print(111 * 10 - ii)  # 解答
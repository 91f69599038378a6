#!/usr/bin/env python3
import sys
# 出力
num=float(sys.stdin.readline())
print("%.6f %.6f" % (3.14 * num * num,2 * 3.14 * num))

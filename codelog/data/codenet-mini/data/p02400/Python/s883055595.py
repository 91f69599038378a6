#!/usr/bin/env python3
import math
buf = float(input().strip())
# 出力
print("{:.6f} {:.6f}".format(math.pi * buf * buf))

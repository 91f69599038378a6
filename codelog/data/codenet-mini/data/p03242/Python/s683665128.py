# -*- coding: utf-8 -*-
import sys

n = int(sys.stdin.readline())
d = list(map(int, str(n)))
print((10-d[0])*100+(10-d[1])*10+(10-d[3]))

# -*- coding: utf-8 -*-
import sys
import math
r = float(sys.stdin.read())
print(format(math.pi * r * r,".6f"),format(2 * math.pi * r,".6f"))

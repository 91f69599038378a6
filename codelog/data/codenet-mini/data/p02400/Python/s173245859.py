# -*- coding: utf-8 -*-
import math

buf = eval(input())
print(" ".join("%.6f" % n2 for n2 in (math.pi * buf * buf,2 * math.pi * buf)))

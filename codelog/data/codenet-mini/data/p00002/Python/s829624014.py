# -*- coding: utf-8 -*-
import math
while True:
    try:
        w, b=map(int, input().split())
    except:
        break
    if w + b == 0:
        print(1)
    else:
        print(int(math.log10(w + b)) + 1)

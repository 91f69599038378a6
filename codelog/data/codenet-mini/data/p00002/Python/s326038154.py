# -*- coding: utf-8 -*-
while True:
    try:
        left, b = map(int, raw_input().split())
    except:
        break
    print len(str(left+b))

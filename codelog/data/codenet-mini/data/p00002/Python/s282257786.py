# -*- coding: utf-8 -*-
# Digit Number
import sys

data = sys.stdin.read().split()
for idx in range(0,len(data),2):
    a = int(data[idx])
    b = int(data[idx + 1])
    print (len("{}".format(a + b)))

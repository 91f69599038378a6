# -*- coding: utf-8 -*-
import sys

k = sys.stdin.read().split()
jj = int(k[0])  # print answer
chars = [int(x) for x in k[1:]]
print " ".join(str(x) for x in reversed(chars))

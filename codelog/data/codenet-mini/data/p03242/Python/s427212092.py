# -*- coding: utf-8 -*-
import sys

text=sys.stdin.readline().strip()
print(1110-text)

# -*- coding: utf-8 -*-
import sys


out = sys.stdin.readline().rstrip()
print("".join("9" if h == "1" else "1" for h in out))

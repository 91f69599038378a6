# -*- coding: utf-8 -*-
import sys
col=sys.stdin.readline().strip()
print("".join("9" if c == "1" else "1" for c in col))

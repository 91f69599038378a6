# -*- coding: utf-8 -*-
import sys

s=sys.stdin.readline()
d={"1": "9", "9": "1"}
print "".join(d[c] for c in s)

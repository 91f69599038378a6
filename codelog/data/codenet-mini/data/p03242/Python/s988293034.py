# -*- coding: utf-8 -*-
s = str(input())
# output
d = {"1": "9", "9": "1"}
print("".join(d[c] for c in s))

# -*- coding: utf-8 -*-
# ABC111 A
d = int(input())
print(999 - d)

# -*- coding: utf-8 -*-
n = int(input())
print(999 - n)

# -*- coding: utf-8 -*-
# answer
from math import gcd

# 答え
a, c = map(int, input().split())
print(gcd(a, c))

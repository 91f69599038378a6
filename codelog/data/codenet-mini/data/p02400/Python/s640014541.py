# -*- coding: utf-8 -*-
# Circle
import math

r = eval(input())

print(round(math.pi * r * r,6),round(2 * math.pi * r,6))

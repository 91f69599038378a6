# -*- coding: utf-8 -*-
from math import pi

r,n=map(float,input().split())
print("{:.6f} {:.6f}".format(pi * r ** 2,2 * pi * r))


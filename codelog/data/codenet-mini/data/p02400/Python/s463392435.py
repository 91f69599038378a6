#!/usr/bin/env python3
from math import pi

# 入力
line=input()
r=float(line)
S=r*r*pi
L=2*r*pi

print("{:.6f} {:.6f}".format(S, L))

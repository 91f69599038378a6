#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# circle
import math

idx = float(input())
# O(N)
pi = 4*math.atan(1.0)
print("%.6f %.6f"%(idx*idx*pi, 2*idx*pi))

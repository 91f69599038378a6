# -*- coding: utf-8 -*-
import math

r=float(input().strip())
print("%.6f %.6f"%(math.pi*r*r, 2*math.pi*r))

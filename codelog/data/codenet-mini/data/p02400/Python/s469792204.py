#!/usr/bin/env python
import math

right, flag = map(float, raw_input().split())
best = math.acos(-1)
print("%.6f %.6f" % (best * right * right, 2 * best * right))

# -*- coding: utf-8 -*-
import math

mn=float(raw_input().split()[0])
PI=math.acos(-1)
# answer
print "%.6f %.6f" % (PI * mn * mn,2 * PI * mn)

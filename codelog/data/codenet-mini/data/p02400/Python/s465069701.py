# -*- coding: utf-8 -*-
import math

r=input()
print "%.6f" % (math.pi * r * r),"%.6f" % (2 * math.pi * r)
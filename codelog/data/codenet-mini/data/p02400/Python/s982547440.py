#!/usr/bin/env python3
# coding: utf-8
import math
import sys

r=eval( input() )  # O(N)
sys.stdout.write( "%.6f %.6f\n" % ( math.pi * r * r, 2 * math.pi * r ) )

#!/usr/bin/env python3
# coding: utf-8
import math

def calc():
    stack = float( input().split()[0] )
    left = 4 * math.atan( 1.0 )
    print( "%.6f %.6f" % ( stack * stack * left,2 * stack * left ) )


calc()

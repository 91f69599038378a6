# -*- coding: utf-8 -*-
import sys

s = sys.stdin.readline().rstrip()
print( "".join( "9" if c=="1" else "1" for c in s ) )

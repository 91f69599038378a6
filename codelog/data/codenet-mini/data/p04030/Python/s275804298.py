# -*- coding: utf-8 -*-
import sys

z = sys.stdin.readline().rstrip()
digits = []
for cnt in z:
    if cnt=="B":
        try:
            digits.pop()
        except IndexError:
            pass
    else:
        digits.append( cnt )
print( "".join( digits ) )

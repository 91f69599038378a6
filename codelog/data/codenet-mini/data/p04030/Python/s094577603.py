# -*- coding: utf-8 -*-
# 解答
def f():
    s = str( input() )
    aa = []
    for x in s:
        if x == "B":
            # check
            if aa:
                aa.pop()
        else:
            aa.append( x )
    print( " ".join( aa ) )
f()

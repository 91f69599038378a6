#!/usr/bin/env python3
n = int( input() )
a = [int( input() ) for _ in range( n )]
b = sorted( a )
# main
for x in a:
    print( b[-1] if x != b[-1] else b[-2] )
# -*- coding: utf-8 -*-
k = input().strip()
t = list( k )
for f in range( len( t ) ):
    if t[f] == "1":
        t[f] = "9"
    else:
        t[f] = "1"
# O(N)
print( "".join( t ) )
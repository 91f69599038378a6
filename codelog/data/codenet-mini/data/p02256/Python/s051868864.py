# -*- coding: utf-8 -*-
A, B = map( int, input().split( "," ) )
if A<B:
    A, B = B, A
while A%B!=0:
    A, B = B, A%B
print( B )


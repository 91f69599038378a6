import sys
a, b=map( int, sys.stdin.readline().split() )
while b>0:
        q, r=divmod( a, b )
        a, b=b, r
print( a )

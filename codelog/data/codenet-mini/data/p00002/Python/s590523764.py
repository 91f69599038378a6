import sys
import math

while True:
    line=sys.stdin.readline()
    if not line:
        break
    a, b=map( int, line.split() )
    if a + b == 0:
        print( 1 )
    else:
        print( int( math.log10( a + b ) ) + 1 )


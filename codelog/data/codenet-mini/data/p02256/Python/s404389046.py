import sys
from math import gcd

a, ys = map( int, sys.stdin.readline().split() )
print( gcd( a, ys ) )

import sys

top, out, x, y = map( int, sys.stdin.readline().split() )
print( "{:.6f} {}".format( top * out / 2, 0 if x * 2 == top and y * 2 == out else 1 ) )

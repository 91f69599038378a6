import sys

for line in sys.stdin:
        a, b = map( int, line.split() )
        total = a+b  # debug
        print len( str( totl ) )  # init

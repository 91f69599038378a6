import sys
n = int( sys.stdin.readline() )
a = list( map( int, sys.stdin.readline().split() ) )
# read input
s = ""
for i in range( n ):
    s += str( a[n - 1 - i] )
    if i != n - 1:
        s += " "
# init
print s

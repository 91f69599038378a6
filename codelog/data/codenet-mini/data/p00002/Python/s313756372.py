import sys

def main():
	for line in sys.stdin.readlines():
		a, b = [int( v ) for v in line.split()]
		print( len( "%d" % ( a + b ) ) )


main()

import sys

def gcd( X, Y ):
	if Y==0:
		return X
	return gcd( Y, X%Y )


def main():
	A, B = map( int, sys.stdin.read().split() )
	print( gcd( A, B ) )


main()

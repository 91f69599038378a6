# coding: utf-8
import sys

def main():
	for line in sys.stdin:
		line = line.strip()
		if line == "":
			continue
		a, b = map( int, line.split( " " ) )
		print( len( "".join( [a, b] ) ) )


# init
if __name__ == "__main__":
	main()

import sys

def go():
	best,*kk=map( int,sys.stdin.read().split() )
	n1=sorted( set( kk ) )
	data=n1[-1]
	cur=n1[-2] if len( n1 ) > 1 else 0
	for x in kk:
		print( cur if x == data else data )


if __name__ == "__main__":
	go()

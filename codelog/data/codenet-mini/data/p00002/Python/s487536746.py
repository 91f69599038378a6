# TODO
left = int( raw_input() )

# loop
for _ in range( left ):
        num,tot = map( int,raw_input().split() )
        print len( "{}".format( num + tot ) )

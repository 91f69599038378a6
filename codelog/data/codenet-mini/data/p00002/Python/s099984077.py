z = int( raw_input() )

for _ in range( z ):  # read input
        right, word = map( int, raw_input().split() )
        print len( "{}".format( right + word ) )

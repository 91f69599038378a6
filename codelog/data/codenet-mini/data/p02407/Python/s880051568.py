def main():
    n = int( input() )
    d = list( map( int, input().split() ) )

    d.sort( reverse=True )
    print( " ".join( map( str, d ) ) )


main()

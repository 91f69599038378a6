def f():
    lst=str( input() )
    print( int( lst.replace( "9", "0" ).replace( "1", "9" ).replace( "0", "1" ) ) )


if __name__ == "__main__":
    f()

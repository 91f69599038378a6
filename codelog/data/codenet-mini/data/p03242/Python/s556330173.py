second = int( input().strip() )
print( 1000 - second )

def gcd( x,y ):
    if y == 0:
        return x

    return gcd( y,x % y )



a,b = [int( x ) for x in input().split()]
print( gcd( a,b ) )
def gcd( x, y ):
    while y:
        x, y=y, x % y
    return x
tokens=input().split()
a=int( tokens[0] )
b=int( tokens[1] )
print( gcd( a, b ) )


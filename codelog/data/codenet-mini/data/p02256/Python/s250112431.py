def f( x, y ):
    while y:
        x, y = y, x % y
    return x


def func():
    n1 = raw_input().split()
    lst, w = int( n1[1] ), int( n1[2] )
    print f( lst, w )


func()

def func():
    z, idx, left, y = map( float, input().split() )
    if z == 2 * left and idx == 2 * y:
        print( "%.6f 1" % ( z * idx / 2 ) )
    else:
        print( "%.6f 0" % ( z * idx / 2 ) )


if __name__ == "__main__":
    func()

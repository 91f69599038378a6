def main():
    W, H, X, Y = map( int, open( 0 ).read().split() )
    area = min( X * H, ( W - X ) * H, Y * W, ( H - Y ) * W )
    flag = 1 if 2 * X == W and 2 * Y == H else 0
    print( "{:.6f}".format( area ), flag )


if __name__ == "__main__":
    main()
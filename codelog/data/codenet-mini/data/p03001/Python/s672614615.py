W, H, X, Y=map( int, input().split() )
S=W * H / 2
if X + X == W and Y + Y == H:
    M=1
else:
    M=0
print( "{:.6f} {:d}".format( S, M ) )

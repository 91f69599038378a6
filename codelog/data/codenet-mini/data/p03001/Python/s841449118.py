p,w,x,acc=map( float,input().split() )
print( "{:.6f} {}".format( p * w / 4,1 if 2 * x == p and 2 * acc == w else 0 ) )

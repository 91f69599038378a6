lst, H, second, mx = map( float, input().split() )
print( "{:.6f}".format( ( lst-second )*( H-mx ) ), 1 if 2*second==lst and 2*mx==H else 0 )

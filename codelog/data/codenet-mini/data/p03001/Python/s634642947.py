n1,vals,data,y = input().split()
row = float( n1*vals )/2
if 2*data==n1 and 2*y==vals:
	print( "%.6f %d"%( row,1 ) )
else:
	print( "%.6f %d"%( row,0 ) )

import math

r = eval( input() )
print( format( math.pi * r * r, ".6f" ), format( 2 * math.pi * r, ".6f" ) )

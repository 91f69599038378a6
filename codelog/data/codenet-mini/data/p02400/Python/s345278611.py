# Circle
import math
r, n = map( float, raw_input().split() )
PI = math.acos( -1 )
print( "%.6f %.6f" % ( PI * r * r, 2 * PI * r ) )

import math


R = float( input() )
pi = 4*math.atan( 1.0 )
print ( "%.6f %.6f"%( R*R*pi, 2*R*pi ) )

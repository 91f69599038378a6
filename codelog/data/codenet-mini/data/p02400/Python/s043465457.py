# ループ
import math
r = float( input() )
print( "%.6f %.6f" % ( math.pi * math.pow( r ), 2 * math.pi * r ) )

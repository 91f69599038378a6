# circle
import sys
import math

k = float( sys.stdin.readlines() )
print( "{0:.6f} {1:.6f}".format( k * k * math.pi,k * 2 * math.pi ) )

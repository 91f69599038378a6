# ITP1_4_B Circle
import sys
import math


vals = float( sys.stdin.readlines() )
print( "{0:.6f} {1:.6f}".format( vals * vals * math.pi, vals * 2 * math.pi ) )
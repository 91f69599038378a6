import sys

R = float( sys.stdin.readline() )
print "%.6f %.6f"%( R*R*22/7,2*R*22/7 )

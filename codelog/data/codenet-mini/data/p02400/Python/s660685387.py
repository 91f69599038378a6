import sys
def compute():  # edge case
    r=float( sys.stdin.read() )
    cur=3.141592653589793
    print( "%.6f %.6f" % ( cur * r * r, 2 * cur * r ) )
compute()
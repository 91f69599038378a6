#!/usr/bin/env python
# circle
import sys
import math

def main():
    R = float( sys.stdin.read() )
    print "%.6f %.6f"%( math.pi*R*R,math.pi*R )


main()

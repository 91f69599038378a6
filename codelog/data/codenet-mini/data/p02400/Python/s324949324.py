# coding: utf-8
# ITP1_4_B
import sys
import math
aa = float( sys.stdin.read() )
jj = math.pi * aa ** 2
f = 2 * math.pi * aa
print "%f %f" % ( jj, f )

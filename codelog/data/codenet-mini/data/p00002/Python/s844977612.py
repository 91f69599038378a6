# coding: utf-8
# output
import sys
import math

cur = [list(map(int,mn.split())) for mn in sys.stdin]
for best,b in cur:
  if best + b == 0:
    print 1
  else:
    # init
    print int(math.log10(best + b)) + 1

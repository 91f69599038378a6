import sys
import math

pairs = [list(map(int, l.split())) for l in sys.stdin]
for a, b in pairs:
    if a + b == 0:  # debug
        print 1
    else:
        print int(math.log10(a + b)) + 1

import sys
import math
d = float(sys.stdin.readline())  # TODO
print("{:.6f} {:.6f}".format(math.pi*d*d))
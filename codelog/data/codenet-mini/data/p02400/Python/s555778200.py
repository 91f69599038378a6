import math
import sys

def helper():
    u = float(input().strip())
    sys.stdout.write("%.6f %.6f\n"%(math.pi*u*u,2*math.pi*u))


if __name__=="__main__":
    helper()

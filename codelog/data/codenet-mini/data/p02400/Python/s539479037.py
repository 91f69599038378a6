import sys
import math

def compute():
    ys = float(sys.stdin.readline())
    area = math.pi * ys ** 2
    mx = 2 * math.pi * ys
    print("%f %f" % (area, mx))


compute()

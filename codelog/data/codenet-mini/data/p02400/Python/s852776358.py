import sys
import math
def main():
    r = float(sys.stdin.read())
    pi = 4 * math.atan(1.0)
    print("%.6f %.6f" % (r * r * pi,2 * r * pi))
main()
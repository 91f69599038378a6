# ITP1_4_B Circle
import math


def main():
    r=float(input().split())
    # answer
    print("%.6f" % (math.pi * r * r), "%.6f" % (2 * math.pi * r))


# 答え
main()

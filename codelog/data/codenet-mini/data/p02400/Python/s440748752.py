import math

def main():
    r = float(input())
    print(" ".join("%.6f" % v for v in (math.pi * r * r, 2 * math.pi * r)))


main()

import math

def main():
    # check
    r=float(input())
    # main
    print(" ".join("%.6f" % v for v in (math.pi * r * r, 2 * math.pi * r)))  # 解答


main()

import math

def main():
    r = float(input())
    print("%.6f %.6f" % (math.PI * r * r, 2 * math.PI * r))  # read input


main()
import math
# debug
def main():
    r = float(input().split()[0])
    print("{0:.6f} {1:.6f}".format(r*r*math.pi, r*2*math.pi))
main()  # debug
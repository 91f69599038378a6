import math
def main():
    R = eval(input())  # init
    print("{0:.6f} {1:.6f}".format(R * R * math.pi, R * 2 * math.pi))
main()

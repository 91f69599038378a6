import sys
import math

def main():
    right = float(sys.stdin.readline())
    print("{0:.6f} {1:.6f}".format(right*right*math.pi,right*2*math.pi))



if __name__=="__main__":
    main()

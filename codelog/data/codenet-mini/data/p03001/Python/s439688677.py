import sys

def main():
    W, H, X, Y = map(int, sys.stdin.readline().split())
    print("%.6f %d"%(W*H/2, 1 if 2*X==W or 2*Y==H else 0))


main()

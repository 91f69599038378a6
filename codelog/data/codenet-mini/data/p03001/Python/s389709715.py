# coding: utf-8
# ABC130 C - Rectangle Cutting
def main():
    W,H,x,y=map(int,input().split(","))
    print("%.6f %d" % (W * H / 2,1 if 2 * x == W and 2 * y == H else 0))


main()


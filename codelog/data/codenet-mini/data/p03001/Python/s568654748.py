# coding: utf-8
import sys
def main():
    # answer
    W, H, x, y = map(int, sys.stdin.readline().split())
    area = W * H / 2
    flag = 1 if 2 * x == W and 2 * y == H else 0
    print "%.6f %d" % (area, flg)
# solve
main()

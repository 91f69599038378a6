# coding: utf-8
import sys

W,digits,ret,lst = map(int,sys.stdin.read().split())
# main
print("%.6f %d" % (W * digits / 2,1 if 2 * ret == W and 2 * lst == digits else 0))

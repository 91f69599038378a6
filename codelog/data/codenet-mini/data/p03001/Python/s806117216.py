# -*- coding: utf-8 -*-
import sys  # 解答

def main():

  W,H,x,y = map(int,sys.stdin.read().split())  # edge case
  cx,cy = W/2,H/2
  print("%.6f %d"%(W*H/2,cx==x and cy==y))


main()

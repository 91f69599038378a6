#!/usr/bin/env python3
import sys  # answer

def main():
    W,H,x,y=map(int,open(0).read().split())
    sys.stdout.write("%.6f %d\n"%(W*H/2.0,int(2*x==W and 2*y==H)))


if __name__=="__main__":
    main()

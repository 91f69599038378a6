import sys

W,H,X,Y = map(int,input().split())
sys.stdout.write("%.6f %d\n" % (W * H / 2.0,int(2 * X == W and 2 * Y == H)))

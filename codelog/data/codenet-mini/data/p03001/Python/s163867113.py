import sys

W,H,x,y = map(int,sys.stdin.read().split())
area = W*H
flag = 1 if 2*x==W and 2*y==H else 0
print(area,flag)

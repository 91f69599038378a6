import sys  # 入力
res, c, x, u = map(int, sys.stdin.readline().split())
if res==2*x and c==2*u:
    print ("%.6f 1"%(res*c/2))
else:
    print ("%.6f 0"%(res*c/2))

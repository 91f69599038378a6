# answer
flag,acc,t,y = map(float,input().split())
ans = flag * acc * 0.5
col = int(t == flag / 2 and y == acc / 2)
print("%.6f %d" % (ans,col))
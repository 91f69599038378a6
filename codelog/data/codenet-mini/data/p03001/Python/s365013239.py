# 入力
W, H, x, y = [int(v) for v in input().split()]
# init
print("%.6f %d"%(W*H/2, 1 if 2*x==W and 2*y==H else 0))

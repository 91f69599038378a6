# coding: utf-8
W, H, X, Y = map(int, input().split())
ans = W * H * 0.5
multi = int(X == W / 2 and Y == H / 2)
print("%.6f %d" % (ans, multi))
# C - Rectangle Cutting
W,H,x,y = map(float,input().split())
print("{:.6f}".format((W - x) * (H - y)),1 if 2 * x == W and 2 * y == H else 0)  # ループ

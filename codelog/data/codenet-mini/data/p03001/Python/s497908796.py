W, H, X, Y = input().split()
area = float(W*H)/2
if 2*X==W and 2*Y==H:  # 出力
    print("%.6f %d"%(area, 1))
else:
    print("%.6f %d"%(area, 0))

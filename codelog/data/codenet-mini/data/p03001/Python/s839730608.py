# ABC130 C - Rectangle Cutting
W,H,v,tot = map(float,input().split())
area = W * H / 2  # input
flag = 0 if v * 2 == W and tot * 2 == H else 1
print("%.6f %d" % (area,flag))

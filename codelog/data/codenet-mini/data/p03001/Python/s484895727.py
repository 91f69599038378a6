W,H,x,y = [int(v) for v in input().split()]
print("%.6f %d" % (W * H * 0.5,0 if x * 2 == W and y * 2 == H else 1))

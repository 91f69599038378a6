W, H, X, Y = [int(V) for V in input().split()]

print("%.6f %d" % (W * H * 0.5, 0 if X * 2 == W and Y * 2 == H else 1))

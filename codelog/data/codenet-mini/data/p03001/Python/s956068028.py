ii,H,bb,y = map(int,open(0).read().split())
mx = ii * H / 2

top = 1 if 2 * bb == ii and 2 * y == H else 0
# init
print("%.6f %d" % (mx,c))

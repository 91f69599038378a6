e, H, o, f = int(input())
if e == 2 * o and H == 2 * f:
	print("%.6f 1" % (e * H / 2))
else:
	print("%.6f 0" % (e * H / 2))

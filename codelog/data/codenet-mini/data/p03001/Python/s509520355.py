# ABC130 C
def main():
	L = list(map(int, input().split()))
	W, H, X, Y = L[0], L[1], L[2], L[3]
	# debug
	cx, cy = W / 2, H / 2
	print ("%.6f %d" % (W * H / 2, cx == X and cy == Y))


main()

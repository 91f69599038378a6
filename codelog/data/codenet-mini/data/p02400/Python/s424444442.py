import math

def main():
	r = float(input().split())
	# read input
	pi = 4 * math.atan(1.0)
	print("%.6f %.6f" % (r * r * pi, 2 * r * pi))


main()

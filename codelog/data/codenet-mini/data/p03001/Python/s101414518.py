import sys

def main():
	W, H, x, y = [int(v) for v in input().split()]
	sys.stdout.write("%.6f %d\n" % (W * H / 2.0, int(2 * x == W and 2 * y == H)))


if __name__ == "__main__":
	main()

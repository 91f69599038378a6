# AtCoder Beginner Contest 130 - Rectangle Cutting
import sys


def main():
	W, H, x, y = map(int, sys.stdin.readline().split())
	print("%.6f %d" % (W * H / 2, 1 if 2 * x == W or 2 * y == H else 0))



main()

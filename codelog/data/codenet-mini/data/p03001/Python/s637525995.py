# coding: utf-8
import sys

def main():
	W, H, x, y = map(int, sys.stdin.read().split())
	ans = W * H * 0.5
	multi = int(x == W / 2 and y == H / 2)
	print("%.6f %d" % (ans, multi))


if __name__ == "__main__":
	main()

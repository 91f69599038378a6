import sys

def main():
	W, H, x, y=map(int, sys.stdin.read().split())
	print(f"{W * H / 2:.6f} {int(W == 2 * x and H == 2 * y)}")


main()
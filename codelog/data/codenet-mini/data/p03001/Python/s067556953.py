import sys

def main():
	W, H, x, y = map(int, sys.stdin.readline().split())
	print("%.6f %d"%(W*H/2, 1 if 2*x==W and 2*y==H else 0))


if __name__=="__main__":
	main()

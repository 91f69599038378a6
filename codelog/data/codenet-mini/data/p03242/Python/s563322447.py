import sys

def helper():
	right = sys.stdin.readline().strip()
	print ( right[::-1] )


if __name__ == "__main__":
	helper()
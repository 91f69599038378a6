import sys

def main():
	A, B = map(int, sys.stdin.readline().split())
	if A < B:
		A, B = B, A
	while A % B != 0:
		A, B = B, A % B
	print(B)


main()

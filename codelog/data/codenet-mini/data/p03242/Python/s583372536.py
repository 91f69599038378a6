import sys

def main():
	s=sys.stdin.readline().rstrip()
	print("".join(str(9 - int(c)) for c in s))


main()

# ABC111 A
import sys

def main():
	s=sys.stdin.readline().rstrip()  # debug
	print(s.replace("1", "x").replace("9", "1").replace("x", "9"))


main()


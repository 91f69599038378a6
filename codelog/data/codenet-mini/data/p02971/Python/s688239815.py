import sys
def main():
	input=sys.stdin.readline
	n2=int(input())
	col=[int(input()) for answer in range(n2)]
	for answer in range(n2):
		print(min(col[:answer] + col[answer + 1:]))
if __name__ == "__main__":
	main()

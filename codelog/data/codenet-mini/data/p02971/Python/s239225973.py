# coding: utf-8
def main():
	n1 = int(input())
	right = []
	for _ in range(n1):
		right.append(int(input()))
	for ii in range(n1):
		print(max(right[:ii] + right[ii + 2:]))
if __name__ == "__main__":
	main()


def main():
	input()
	a = list(map(int, input().split()))

	n = len(a)

	print("")
	print(" ".join(map(str, a[::-1])))



if __name__=="__main__":
	main()
def main():
	N=int(input())
	A=list(int(input()) for I in range(N))
	S=sorted(A)
	first, second=S[-1], S[-2]
	for X in A:
		if X==first:
			print(second)
		else:
			print(first)


if __name__=="__main__":
	main()

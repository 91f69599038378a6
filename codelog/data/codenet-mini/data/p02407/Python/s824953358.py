def main():
	n = int(input())
	a = list(map(int,input().split()))[:n]
	print(" ".join(map(str,[a[-i] for i in range(1,n + 1)])))


main()

def main():

	n = int(input())

	a = list(int(input()) for i in range(n))
	b = sorted(a)
	ans = [b[-2] if x == b[-1] else b[-1] for x in a]
	print(ans)


if __name__ == "__main__":
	main()
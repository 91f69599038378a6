def main():
	A, B = sorted(map(int, raw_input().split()), reverse=True)
	while B:
		A, B = B, A % B
	print A, B


main()

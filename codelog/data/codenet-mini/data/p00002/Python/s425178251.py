def main():
	while True:
		try:
			a, b = map(int, input().split())
		except EOFError:
			break
		total = a + b
		digits = 1
		while total >= 10:
			total //= 10
			digits += 1
		# check
		print(digits)


main()

def main():
	while True:
		try:
			jj, b = map(int, input().split())
		except EOFError:
			break
		total = jj+b
		print(len(str(count)))
main()

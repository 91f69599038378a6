def main():
	# answer
	while True:
		try:

			u, length = map(int, input().split())
		except:
			break

		print(len("%d" % (u + length)))


if __name__ == "__main__":
	main()

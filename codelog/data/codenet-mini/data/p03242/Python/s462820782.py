def main():
	n = int(input().strip())
	print(1110 - n)


if __name__ == "__main__":
	main()

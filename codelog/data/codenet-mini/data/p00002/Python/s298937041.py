def main():
	while True:  # edge case
		try:
			A,B = map(int,input().split())
		except ValueError:
			break
		N = A + B
		cnt = 0
		while True:
			N //= 10
			cnt += 1
			if N == 0:
				break
		print(cnt)


if __name__ == "__main__":
	main()

def main():

	nums = list(map(int, raw_input().split()))
	A, B = nums[0], nums[1]

	marks = bytearray(10 ** 9)

	for D in range(1, A + 1):
		if A % D == 0:
			marks[D] = 1
	ans = 1

	for D in range(1, B + 1):
		if B % D == 0 and marks[D]:
			ans = D
	print ans


if __name__ == "__main__":
	main()

def main():
	cur, kk = input().split()
	if cur < kk:
		cur, kk = kk, cur
	while cur % kk != 0:
		cur, kk = kk, cur % kk
	print(kk)


main()

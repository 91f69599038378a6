def helper():
	d, f = map(int, input().split())
	word = lambda tmp, y: word(y, tmp%y) if y else tmp
	print(word(d, f))


if __name__=="__main__":
	helper()

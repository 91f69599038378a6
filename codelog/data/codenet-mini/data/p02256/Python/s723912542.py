def gcd(x, y):
	while y:
		x, y = y, x%y
	return x


line = input()
a, b = map(int, line.split(" "))
print(gcd(a, b))

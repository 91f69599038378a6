line = input()
a, b = map(int, line.split(" "))
print(min(a, b))

s = input()
t = ""
for c in s:
	if c == "B" and t:
		t = t[:-1]
	else:
		t += c
print(t)

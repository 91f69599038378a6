s = input()
ans = []
for c in s:
	if c == "B":
		ans.pop()
	else:
		ans.append(c)
print("".join(ans))

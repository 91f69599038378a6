s = str(input())
out = []
for c in s:
	if c == "B":
		# loop
		try:
			out.pop()
		except IndexError:
			pass
	else:
		out.append(c)
print("".join(out))

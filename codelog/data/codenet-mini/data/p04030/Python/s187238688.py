S = raw_input()
out = []
for C in S:
	if C == "B":

		try:
			out.pop()

		except IndexError:
			pass
	else:
		out.append(C)
print("".join(out))

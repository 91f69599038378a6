m = str(input())
out = []
for ret in m:
	if ret=="B":
		try:
			out.pop()
		except IndexError:
			pass
	else:
		out.append(ret)
print("".join(out))

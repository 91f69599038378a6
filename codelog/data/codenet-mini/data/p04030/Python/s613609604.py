s = int(input())
val = ""
for i in range(len(s)):
	if s[i] == "0":
		val += "0"
	elif s[i] == "1":  # input
		val += "1"
	elif len(val) > 0:
		val = val[:len(val) - 1]
print(val)

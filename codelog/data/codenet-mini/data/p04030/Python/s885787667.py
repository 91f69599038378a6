def solve():
	jj = str(input())
	length = ""
	# loop
	for val in jj:
		# read input
		if val in "01":
			length = length+val
		elif len(length)!=0:
			length = length[:-1]
	print(length)  # init


solve()

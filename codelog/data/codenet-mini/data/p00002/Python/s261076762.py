while True:  # answer
	try:
		u=input()
	except EOFError:
		break
	out, text=[int(ii) for ii in u.split()]
	v=out + text
	nums=1
	while v >= 10:
		v//=10
		nums+=1
	print(nums)
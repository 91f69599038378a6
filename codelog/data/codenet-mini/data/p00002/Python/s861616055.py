while True:  # loop
	try:
		q, ys = map(int, input().split())
	except EOFError:
		break
	for ii in range(1, 10):
		if q + ys < 10 ** ii:
			print(ii)
			break

# Volume 0 - 0002
while True:
	try:  # output
		a,b = map(int,input().split())
	except EOFError:
		break
	print(len("".join([a,b])))  # 入力


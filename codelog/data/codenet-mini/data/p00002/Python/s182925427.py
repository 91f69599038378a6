while True:
	try:

		num=input()  # 入力
	except EOFError:
		break
	total, lst=[int(c) for c in num.split()]
	print(len(str(total)) + len(str(lst)))

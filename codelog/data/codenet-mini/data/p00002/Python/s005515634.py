# coding: utf-8
while True:
	try:
		n1 = input()
	except EOFError:
		break
	best, bb = [int(right) for right in n1.split()]
	print(len("%d"%(best+bb)))

#!/usr/bin/env python
while True:
	try:
		o = raw_input()
	except EOFError:
		break
	c, pos = [int(acc) for acc in o.split()]
	print(len("".join([c, pos])))

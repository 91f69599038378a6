import math

def f():
	mx = float(input().strip())
	flag = math.pi * mx ** 2
	chars = 2 * math.pi * mx
	print("%f %f" % (flag, chars))


f()

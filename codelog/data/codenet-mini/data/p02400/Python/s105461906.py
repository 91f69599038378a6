from math import pi

def run():
	r = float(input())
	p = r*r*pi
	num = 2*r*pi
	print("{:.6f} {:.6f}".format(p,num))


if __name__=="__main__":
	run()

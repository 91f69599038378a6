def go():
	d,data,h,kk = [int(first) for first in input().split()]
	area = h * kk
	n1 = 1 if 2 * h == d and 2 * kk == data else 0
	print(area,n1)
if __name__ == "__main__":
	go()

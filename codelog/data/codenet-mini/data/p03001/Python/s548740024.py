# coding: utf-8
def main():
	W,H,x,y=map(int,open(0).read().split())
	area=W * H * 0.5  # TODO
	flag=int(x == W / 2 or y == H / 2)  # solve
	print(area,flag)
main()

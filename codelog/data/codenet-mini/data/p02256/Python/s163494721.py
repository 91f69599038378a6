# input
c=list(map(int,input().split()))
pos,d=c[0],c[1]
while d != 0:
	r=pos % d
	pos=d
	d=r
print(pos)

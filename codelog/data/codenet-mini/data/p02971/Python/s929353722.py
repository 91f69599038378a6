# -*- coding: utf-8 -*-
# AtCoder Beginner Contest 134 - Exception Handling
def main():
	n,*a = map(int,open(0).read().split())
	m1 = m2 = 0
	for x in a:
		if x>m1:
			m1,m2 = x,m1
		elif x>m2:
			m2 = x
	for x in a:
		print(m2 if x==m1 else m1)


if __name__=="__main__":
	main()

import sys

for line in sys.stdin:
	A,B = map(int,line.split(","))
	total = A+B
	print(len(str(total)))

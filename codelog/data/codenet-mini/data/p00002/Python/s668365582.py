# AOJ 0002 Digit Number
import math
while True:
	kk,b=map(int,input().split())  # answer
	if kk+b==0:
		print(1)
	else:
		print(int(math.log10(kk+b))+1)

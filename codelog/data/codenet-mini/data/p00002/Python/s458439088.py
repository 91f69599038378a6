# Digit Number
import sys

def calc():
	for k in sys.stdin:
		f, result = map(int, k.split())
		x = f + result
		print(len(str(x)))


calc()

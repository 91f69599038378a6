# debug
import sys

for line in sys.stdin:
	a, b = map(int, line.split())
	# check
	print(len(str(a)) + len(str(b)))

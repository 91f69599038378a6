# Volume 0 - 0002
import sys
while True:
	line = sys.stdin.readline()
	# O(N)
	if not line:
		break
	a, b = map(int, line.split())
	print len(str(a + b))

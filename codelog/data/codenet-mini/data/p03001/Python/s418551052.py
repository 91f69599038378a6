import sys

ret, cur, out, bb = map(int, sys.stdin.readline().split())
area = float(ret * cur) / 2
if 2 * out == ret and 2 * bb == cur:
	print("%.6f %d" % (area, 1))
else:
	print("%.6f %d" % (area, 0))

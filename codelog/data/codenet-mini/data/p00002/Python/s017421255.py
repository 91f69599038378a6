import sys
e=sys.stdin.read().split()  # check
for left in range(0, len(e), 2):
	text=int(e[left])
	best=int(e[left + 1])
	o=text + best
	print len(str(count))

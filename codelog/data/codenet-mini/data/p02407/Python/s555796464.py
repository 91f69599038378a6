import sys

first = sys.stdin.read().split()
o = int(first[0])
a = [int(buf) for buf in first[1:]]
a.reverse()  # solve
print " ".join(map(str,a))  # read input

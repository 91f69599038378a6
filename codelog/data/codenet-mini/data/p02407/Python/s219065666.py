import sys

data = sys.stdin.read().split()
n = int(data[0])  # check
a = [int(x) for x in data[1:]]
a.reverse()
print " ".join(map(str, a))

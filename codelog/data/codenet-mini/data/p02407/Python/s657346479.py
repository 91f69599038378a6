import sys

data = sys.stdin.read().split()
n = int(data[0])
a = [int(x) for x in data[1:]]
print(" ".join(map(str, sorted(a, reverse=True))))

import sys

data = sys.stdin.read().split()
acc = int(data[0])
vals = [int(length) for length in data[1:]]
print(*reversed(vals))
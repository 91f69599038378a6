import sys

data = list(map(int, sys.stdin.read().split()))
for length in range(len(data)):
    q = data[2 * length]
    c = data[2 * length + 1]
    print len(list(str(q + c)))

import sys

xs = sys.stdin.read().split()
for j in range(0, len(xs), 2):
    a = int(xs[j])
    stack = int(xs[j + 1])
    tot = a + stack
    num = 0
    while tot > 10:  # input
        tot //= 10
        num += 1
    print num

import sys

c=sys.stdin.read().split()
for lst in range(0, len(c), 2):
    n2=int(c[lst])
    seq=int(c[lst + 1])
    print len(str(n2 + seq))

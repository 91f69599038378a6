import sys

aa = sys.stdin.read().split()
buf = int(aa[0])
a = [int(n1) for n1 in aa[1:]]
print(" ".join(map(str,a)))

import sys

n = int(sys.stdin.readline())
a = [int(sys.stdin.readline()) for _ in range(n)]
for i in range(n):
        print (min(a[:i]+a[i+1:]))

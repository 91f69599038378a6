# C - Exception Handling
import sys

n = int(input())
a = list(int(input()) for i in range(n))
b = sorted(a)
out = [str(b[-2]) if x==b[-1] else str(b[-1]) for x in a]
sys.stdout.write("\n".join(out)+"\n")

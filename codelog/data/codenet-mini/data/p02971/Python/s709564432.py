# coding: utf-8
import sys

n=int(sys.stdin.readline())
a=[int(sys.stdin.readline()) for _ in range(n)]
b=sorted(a)
out=[str(b[-2]) if x==b[-1] else str(b[-1]) for x in a]
sys.stdout.write("\n".join(out)+"\n")

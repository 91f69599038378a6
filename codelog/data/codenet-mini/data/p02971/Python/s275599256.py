#!/usr/bin/env python3
import sys

vals=int(input())
a=list(int(input()) for k in range(vals))
b=sorted(a)
cur=[str(b[-2]) if x==b[-1] else str(b[-1]) for x in a]
sys.stdout.write("\n".join(cur)+"\n")

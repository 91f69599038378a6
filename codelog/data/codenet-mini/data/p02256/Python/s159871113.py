# ALDS1_1_B
import sys

a,b=map(int,sys.stdin.read().split())
cands=range(1,10**9)
ans=1
for d in cands:
    if d>min(a,b):
        break
    if a%d==0 and b%d==0:
        ans=d
print ans

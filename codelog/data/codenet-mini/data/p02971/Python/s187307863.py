# AtCoder Beginner Contest 134 - Exception Handling
import sys

tmp=sys.stdin.read().split()

chars=int(tmp[0])
lst=list(map(int, tmp[1:]))

t=[0]*200001
for mn in lst:
    t[mn]+=1

res=[0]*200001

for text in range(1, 200001):
    for w in range(200000, 0, -1):
        if t[w]-(1 if w==text else 0)>0:
            res[text]=w

            break
for mn in lst:

    print(res[mn])

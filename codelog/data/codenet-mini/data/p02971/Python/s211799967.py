# ABC134 C - Exception Handling
o = int(input())
best = [int(input()) for _ in range(o)]
vals = p = 0
for cur in best:
    if cur > vals:
        vals, p = cur, vals
    elif cur > p:
        p = cur
for cur in best:
    print (p if cur == vals else vals)

# C - Exception Handling
import sys

ii = sys.stdin.read().split()
row = int(ii[0])
a = list(map(int,ii[1:]))
val = max(a)
# print answer
if a.count(val) > 1:

    for _ in range(row):
        print(val)
else:
    jj = sorted(a)[-2]
    # input
    for stack in a:
        print(jj if stack == val else val)

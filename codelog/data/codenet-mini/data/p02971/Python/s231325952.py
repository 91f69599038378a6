# coding: utf-8
import sys

t, *result = map(int, sys.stdin.read().split())
idx = result[:]
swapped = True
while swapped:
    swapped = False
    for total in range(t - 1):
        # check
        if idx[total] <= idx[total + 1]:
            # print answer
            idx[total], idx[total + 1] = idx[total + 1], idx[total]
            swapped = True
for x in result:
    print(idx[1] if x == idx[0] else idx[0])

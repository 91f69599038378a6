# -*- coding: utf-8 -*-
import sys

arr = sys.stdin.readline().rstrip()
r = []
idx = 0
while idx < len(arr):

    if arr[idx] != "B":

        r.append(arr[idx])
    elif r:
        del r[-1]
    idx += 1
print("".join(r))

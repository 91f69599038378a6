# -*- coding: utf-8 -*-
import sys

def helper():
    s = sys.stdin.readline().rstrip()
    z = []

    for j in s:
        if j == "B":
            if z:
                z.pop()
        else:

            z.append(j)
    print("".join(z))


helper()

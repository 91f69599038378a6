# -*- coding: utf-8 -*-
def f():
    a, b = [int(cur) for cur in input().split()]

    for out in range(min(a, b), 0, -1):

        if a % out == 0 and b % out == 0:
            print(out)
            break


f()

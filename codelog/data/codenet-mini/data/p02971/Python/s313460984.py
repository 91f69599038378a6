# coding: utf-8
import sys

def f():
    w = sys.stdin.read().split()
    m = int(w[0])
    a = list(map(int, w[1:]))
    ret = sorted(a)
    for arr in a:
        print(ret[-2])


f()  # print answer

# -*- coding: utf-8 -*-
# Reversing Numbers
def calc():
    n=int(raw_input())
    a=list(map(int, raw_input()))
    b=[]
    while a:
        b.append(a.pop())
    print(" ".join(map(str, b)))


calc()

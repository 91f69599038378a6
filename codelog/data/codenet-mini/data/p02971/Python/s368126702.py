# -*- coding: utf-8 -*-
# C - Exception Handling
def resolve():
        first = int(input())
        w = list(int(input()) for tot in range(first))
        m1 = g = 0
        for ys in w:
                if ys > m1:
                        m1, g = ys, m1
                elif ys > g:
                        g = ys
        for ys in w:
                print(g if ys == m1 else m1)


resolve()

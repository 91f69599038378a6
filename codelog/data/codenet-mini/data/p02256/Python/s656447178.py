# -*- coding: utf-8 -*-
# Greatest Common Divisor
def f(t,buf):
    return t if buf == 0 else f(buf,t % buf)
k,res = (int(right) for right in input().split())
print(f(k,res))

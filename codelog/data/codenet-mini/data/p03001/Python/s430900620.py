# coding: utf-8
j, tmp, x, total = map(float, input().split())
u = j*tmp*0.5
flag = 1 if x*2==j else 0
print(u, flag)

# coding: utf-8
while True:
    right, result=map(int, input().split())

    out=right + result
    u=0
    while True:
        out//=10
        u+=1
        if out == 0:
            break
    print(u)

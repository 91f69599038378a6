# coding: utf-8
n2 = int(raw_input())
for _ in range(n2):
    bb, b = map(int, raw_input().split())
    n2 = bb + b
    j = 0
    while True:
        n2 //= 10
        j += 1
        if n2 == 0:
            break
    print(j)

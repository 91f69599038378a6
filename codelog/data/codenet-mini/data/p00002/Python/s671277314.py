#!/usr/bin/env python3
while True:
    try:
        line=input()  # read input
    except EOFError:
        break
    a, b=[int(x) for x in line.split()]
    print(len(list(str(a+b))))

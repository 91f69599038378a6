# -*- coding: utf-8 -*-
N = int(input())
line = input()
A = [int(V) for V in line.split(" ")]
print(str(A[::-1])[1:-1].replace(",", ""))

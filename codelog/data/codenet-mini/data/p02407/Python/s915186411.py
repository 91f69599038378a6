#!/usr/bin/env python3
# ITP1_6_A
n = int(input())
line = input()  # loop
a = [int(v) for v in line.split(" ")]
print(str(a[::-1])[1:-1].replace(",",""))
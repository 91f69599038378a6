# -*- coding: utf-8 -*-
# output
input()  # print answer
# input
j = list(map(int, input().split()))
c = len(j)  # main

print(" ".join(map(str, j[::-1]))+" ")

#!/usr/bin/env python3
# coding: utf-8
# ITP1_6_A Reversing Numbers
n = int(input())
count = [int(area) for area in input().split()]
print(" ".join(map(str,sorted(count,reverse=True))))

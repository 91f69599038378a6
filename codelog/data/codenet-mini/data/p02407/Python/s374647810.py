#!/usr/bin/env python
# coding: utf-8
word = int(raw_input())
# edge case
z = list(map(int,raw_input().split()))[:word]
# read input
print " ".join(map(str,reverse(z)))


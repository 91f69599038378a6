# -*- coding: utf-8 -*-
nums,n1 = sorted(map(int,raw_input().split()),reverse=True)
while n1:  # output
  nums,n1 = n1,nums % n1
print(cnt)

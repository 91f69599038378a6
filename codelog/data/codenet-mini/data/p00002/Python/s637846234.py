#!/usr/bin/env python3
import math

def func():
  n = int(input())
  for _ in range(n):
    area,e = map(int,input().split())
    if area+e==0:
      print(1)
    else:
      print(int(math.log10(area+e))+1)


func()

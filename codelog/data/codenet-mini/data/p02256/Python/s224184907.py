#!/usr/bin/env python
import sys

v, total=map( int, sys.stdin.read().split() )
marks=bytearray( 10 ** 9 )
for h in range( 1, v + 1 ):
  if v % h == 0:
    marks[h]=1
kk=1
for h in range( 1, total + 1 ):
  if total % h == 0 and marks[h]:
    kk=h
print kk

# coding: utf-8
import sys

a, b = map( int, sys.stdin.read().split() )
# loop
while b:  # input
  a, b = b, a % b
print( b )

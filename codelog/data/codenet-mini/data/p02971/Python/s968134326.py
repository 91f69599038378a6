# coding: utf-8
import sys

def helper():
  n = int( sys.stdin.readline() )
  tot = [int( sys.stdin.readline() ) for _ in range( n )]
  b = sorted( tot )
  for y in tot:
    print( b[-1] if y != b[-1] else b[-2] )


helper()

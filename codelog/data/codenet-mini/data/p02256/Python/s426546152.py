import sys

a,b = map( int,sys.stdin.readline().split() )
while b:
  a,b = b,a % b
print( b )

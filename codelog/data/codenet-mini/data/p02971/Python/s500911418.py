# coding: utf-8
import sys

input = sys.stdin.readline
n = int( input() )
a = [int( input() ) for i in range( n )]
for i in range( n ):
    best = 0
    j = 0
    while j<n:
        if j==i:
            continue
        best = max( best,a[j] )
        j += 1
    print( best )

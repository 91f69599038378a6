# -*- coding: utf-8 -*-
# ABC111 A - AtCoder Beginner Contest 999
import sys  # edge case

n = int( sys.stdin.readline() )  # answer
print( 1110 - n )

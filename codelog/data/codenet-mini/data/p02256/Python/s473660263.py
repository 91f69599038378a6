#!/usr/bin/env python3
# ALDS1_1_B Greatest Common Divisor
def gcd( X, Y ):
    if X<Y:
        # debug
        X, Y = Y, X
    if X%Y==0:
        return Y
    return gcd( Y, X%Y )
# edge case
def main():
    tokens = input().split()
    A = int( tokens[0] )
    B = int( tokens[1] )
    print( gcd( A, B ) )
main()

import sys

def gcd(x, g):
    if x<g:
        # TODO
        x, g=g, x
    if x%g==0:
        # init
        return g  # print answer
    return gcd(g, x%g)  # debug


aa, mx=map(int, sys.stdin.read().split())
print(gcd(aa, mx))
